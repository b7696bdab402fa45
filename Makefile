# The two commands of the README, and a few more for developers.
SWIFT ?= swift
## Release builds link the Swift runtime and Foundation statically: the reader starts about 20 %
## sooner and takes about 4.5 MB less memory than with them as shared libraries (docs/performance.md).
RELEASE = -c release --static-swift-stdlib

## Where make install puts bok (DESTDIR for packaging).
PREFIX ?= /usr/local

.PHONY: run test bench fuzz deps build clean man install format lint

deps:
	@scripts/install-deps.sh

## Build in release mode and start bok on the built-in mock library.
run: deps
	$(SWIFT) build $(RELEASE) --product bok
	@scripts/compile-translations.sh
	.build/release/bok --mock

## Build and run the whole test suite, one test at a time. (Parallel runs once hung: that was a
## URLSession cancellation deadlock in the lending client, since fixed; on 2 cores parallel saves
## only about 10 % and makes a failing run harder to read.)
test: deps lint
	@scripts/install-test-epubs.sh
	@scripts/install-test-tools.sh
	$(SWIFT) build --build-tests
	@scripts/compile-translations.sh
	@scripts/generate-manual.sh
	$(SWIFT) test --skip-build --no-parallel

## Benchmarks (release build); figures go in docs/performance.md.
bench: deps
	$(SWIFT) build $(RELEASE)
	.build/release/bok-bench
	.build/release/shelf-bench
	.build/release/mock-bench
	Benchmarks/mock-load.sh
	Benchmarks/reader-bench.sh
	Benchmarks/calibre-bench.py --no-build

## Coverage-guided fuzzing of the parsers of untrusted bytes (FUZZ_SECONDS per target, default 60);
## crashing inputs are kept in Tests/FuzzRegressions/. See docs/security.md.
fuzz: deps
	scripts/fuzz.sh

## The man page, .build/man/bok.1 (man -l .build/man/bok.1 shows it).
man: deps
	scripts/generate-manual.sh

## Installs bok, its man page and its bash, zsh and fish completions under $(PREFIX).
install: deps
	$(SWIFT) build $(RELEASE) --product bok
	scripts/generate-manual.sh
	scripts/compile-translations.sh
	scripts/install.sh "$(DESTDIR)$(PREFIX)" .build/release/bok .build/man/bok.1 .build/share/locale

## The Swift sources in the style of .swift-format (line length 120); make test runs make lint.
format:
	swift format --in-place --recursive --parallel Sources Mocks Tests Benchmarks Fuzz Package.swift

lint:
	@scripts/lint.sh

build: deps
	$(SWIFT) build

clean:
	rm -rf .build
