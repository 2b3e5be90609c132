import CLibXML2
import FeedModel
import Foundation

/// The second stage of a two-thread parse (`ParseOptions.concurrentCards`): the parsing thread
/// hands over each finished item's fields; one worker thread applies the card contract
/// (sanitizing, plain text, URLs: most of the per-item cost) and calls `onCard`, in document
/// order. The queue is bounded (`maxQueuedBytes`, `maxQueuedItems`): the parser waits when the
/// worker falls behind, so memory stays flat whatever the document's size.
final class CardPipeline: @unchecked Sendable {
    static let maxQueuedBytes = 4 << 20
    static let maxQueuedItems = 256
    /// Items the worker waits for before it wakes up: one wake-up per item would cost more in
    /// thread switches than the handing over saves.
    static let batchItems = 32

    private let onCard: (Card) -> Void
    private let condition = NSCondition()
    // Guarded by `condition`.
    // Optional so that the worker can move each item out (`take()`); iterating would copy it.
    private var queue: [EntryFields?] = []
    private var queuedBytes = 0
    private var closed = false
    private var finished = false
    private var workerWaiting = false
    private var producerWaiting = false

    init(onCard: @escaping (Card) -> Void) {
        self.onCard = onCard
        queue.reserveCapacity(64)
        let thread = Thread { [self] in run() }
        // As much stack as the main thread: the libxml2 fallback of the sanitizer recurses.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Queues one item (waits while the queue is full).
    func submit(_ entry: consuming EntryFields) {
        let size = entry.approximateBytes
        condition.lock()
        while !queue.isEmpty && (queuedBytes + size > Self.maxQueuedBytes || queue.count >= Self.maxQueuedItems) {
            producerWaiting = true
            condition.wait()
            producerWaiting = false
        }
        queue.append(.some(consume entry))
        queuedBytes += size
        if workerWaiting && batchReady { condition.broadcast() }
        condition.unlock()
    }

    /// Whether the worker has enough to do to be woken up (with `condition` locked).
    private var batchReady: Bool {
        queue.count >= Self.batchItems || queuedBytes >= Self.maxQueuedBytes / 2 || closed
    }

    /// Waits until every queued item has gone through `onCard` and the worker has ended. After
    /// this returns no `onCard` call is left; calling it again does nothing.
    func finish() {
        condition.lock()
        closed = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private func run() {
        // libxml2's error handlers are per thread: silence this one's too (HTML fallback parses).
        cxml_silence_errors()
        var batch: [EntryFields?] = []
        batch.reserveCapacity(64)
        while true {
            condition.lock()
            while !batchReady {
                workerWaiting = true
                condition.wait()
                workerWaiting = false
            }
            if queue.isEmpty {
                finished = true
                condition.broadcast()
                condition.unlock()
                return
            }
            swap(&batch, &queue)
            queuedBytes = 0
            if producerWaiting { condition.broadcast() }
            condition.unlock()
            for i in batch.indices { onCard(batch[i].take()!.card()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
