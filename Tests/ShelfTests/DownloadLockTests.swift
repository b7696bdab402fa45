import Foundation
import Shelf
import Synchronization
import TestSupport
import Testing

/// A second bok waiting for a book another is downloading is told who holds it, and when it is over.
@Suite("Waiting for another bok's download")
struct DownloadLockTests {
    @Test("The waiter learns the holder's process id, then that the wait is over, and takes the lock")
    func waiterIsTold() async throws {
        let dir = try TemporaryDirectory()
        let file = dir.url.appendingPathComponent("locks/1.epub.lock")
        let first = try await DownloadLock(file: file, timeout: 5)
        let told = Mutex<[String]>([])
        let releasing = Task {
            try await Task.sleep(for: .milliseconds(300))
            first.release()
        }
        let second = try await DownloadLock(file: file, timeout: 5) { holder, over in
            told.withLock { $0.append(over ? "over" : "held by \(holder.map(String.init) ?? "?")") }
        }
        try await releasing.value
        #expect(told.withLock { $0 } == ["held by \(getpid())", "over"])
        second.release()
    }
}
