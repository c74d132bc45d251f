//! What the benches share.

use gametrace::search::{Event, Sink};

/// Counts the nodes a search enters: the unit of a search's throughput.
#[derive(Default)]
pub struct NodeCount(pub u64);

impl<S, M, V, R> Sink<Event<S, M, V, R>> for NodeCount {
    type Branch = NodeCount;
    fn event(&mut self, e: Event<S, M, V, R>) {
        if matches!(e, Event::Enter { .. } | Event::Search { .. }) {
            self.0 += 1;
        }
    }
    fn branch(&self) -> NodeCount {
        NodeCount(0)
    }
    fn join(&mut self, b: NodeCount) {
        self.0 += b.0;
    }
}
