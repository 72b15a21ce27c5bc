import Dispatch

/// `map` over both cores for large inputs (order preserved); plain `map` for small ones.
public func parallelMap<T: Sendable, U: Sendable>(_ input: [T], _ transform: @Sendable (T) -> U) -> [U] {
    guard input.count >= 16 else { return input.map(transform) }
    // Small chunks handed out dynamically: records that need signatures cluster by path (mandates/,
    // verdicts/), so halves would leave one core idle.
    let chunk = 32
    let chunks = (input.count + chunk - 1) / chunk
    var output = [U?](repeating: nil, count: input.count)
    output.withUnsafeMutableBufferPointer { buffer in
        nonisolated(unsafe) let results = buffer
        DispatchQueue.concurrentPerform(iterations: chunks) { index in
            let start = index * chunk
            for item in start..<min(start + chunk, input.count) { results[item] = transform(input[item]) }
        }
    }
    return output.map { $0! }
}
