//! Issue 17.6: after the first view a WebSocket client receives only what changed, so an
//! update late in a battle is about the size of an early one, while the whole view (what every
//! update carried before) keeps growing with the log. A short battle here; the figures of a
//! whole 1,000-point battle come from `examples/update_sizes.rs` (see the README).

use crate::sizes;
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_updates_are_about_the_size_of_early_ones() {
    let m = sizes::measure(1, 3, "romans-1000", "celts-1000").await;
    sizes::print(&m);
    assert!(m.last_turn > 3, "the battle lasted past turn 3");
    for w in &m.watchers {
        let turn = |t: u32| sizes::mean_and_max(&w.sizes[&t]);
        let ((before_1, _), (now_1, _)) = turn(1);
        let ((before_3, _), (now_3, max_3)) = turn(3);
        assert!(
            before_3 > before_1 + 5_000,
            "{}: the whole view grows ({before_1} -> {before_3} bytes)",
            w.name
        );
        assert!(
            now_3 < 3 * now_1.max(500) && max_3 < 32 * 1024,
            "{}: updates of turn 3 ({now_3} bytes, largest {max_3}) against turn 1 ({now_1})",
            w.name
        );
        assert!(
            now_3 * 10 < before_3,
            "{}: a tenth of the whole view at most",
            w.name
        );
    }
}
