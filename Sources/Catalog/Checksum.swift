internal import Crypto
internal import Foundation

/// The checksum that authenticates a calling service: lowercase hex SHA-512 of
/// `ServiceID + parameters (in the call's order) + ServiceKey`. The key itself is never sent.
public enum Checksum {
    /// Computes the checksum of a call.
    /// - Parameters:
    ///   - serviceID: The library's service id.
    ///   - parameters: The call's parameters in the order `elib-api.md` gives for that call.
    ///   - serviceKey: The secret shared with the lending service.
    public static func compute(serviceID: String, parameters: [String], serviceKey: String) -> String {
        let input = serviceID + parameters.joined() + serviceKey
        return SHA512.hash(data: Data(input.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Compares a received checksum with the expected one in constant time.
    public static func matches(_ received: String, serviceID: String, parameters: [String], serviceKey: String) -> Bool
    {
        let expected = Array(compute(serviceID: serviceID, parameters: parameters, serviceKey: serviceKey).utf8)
        let got = Array(received.lowercased().utf8)
        guard expected.count == got.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(expected, got) { difference |= a ^ b }
        return difference == 0
    }
}
