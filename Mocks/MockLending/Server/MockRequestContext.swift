import Hummingbird
import NIOCore

/// The request context of the mock's routes: Hummingbird's basics plus the connection's channel,
/// which the `Drop` fault closes to end a call without an answer.
struct MockRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
