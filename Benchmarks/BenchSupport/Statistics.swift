import Foundation

/// The middle of `values` (the mean of the two middle ones for an even count); NaN for none.
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The nearest-rank `p` percentile of `values` (`p` from 0 to 1, 0.95 for p95); NaN for none.
public func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[max(0, min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1))]
}

/// Milliseconds since an arbitrary start, for timing with a monotonic clock.
public func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }
