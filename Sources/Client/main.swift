print("bok")
