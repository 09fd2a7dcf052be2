//! A C# port's big tables cost their size once: `new T[n]` and `Array.Resize` allocate the
//! array in one piece, with no second copy on the way, which would double the peak (a
//! 192 MiB transposition table grown by `Array.Resize` from `{ }` needed 384 MiB, past
//! the 256 MiB limit, where C# needs the table's size).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use framework::prelude::*;

/// The system allocator, counting the bytes held now and the most held at once.
struct Peak;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; this only counts.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let held = HELD.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(held, Ordering::SeqCst);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: the caller's contract is passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Peak = Peak;

/// The most bytes held at once while `f` runs, beyond those held before it.
fn peak_of<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = HELD.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let result = f();
    (result, PEAK.load(Ordering::SeqCst) - before)
}

#[test]
fn new_and_resize_hold_one_copy_of_a_big_table() {
    type Entry = (Move, u64, i32, i32, i32);
    const LEN: i32 = 1 << 20;
    let table_bytes = LEN as usize * std::mem::size_of::<Entry>();
    let slack = table_bytes / 16;

    let (table, peak) = peak_of(|| cs::Array::<Entry>::new(LEN));
    assert!(
        peak <= table_bytes + slack,
        "new: {peak} bytes for {table_bytes}"
    );
    drop(table);

    let empty = cs::Array::<Entry>::new(0);
    let (grown, peak) = peak_of(|| empty.resized(LEN)); // Array.Resize(ref tt, n) from { }
    assert!(
        peak <= table_bytes + slack,
        "resize: {peak} bytes for {table_bytes}"
    );
    assert_eq!(grown.len(), LEN);

    let small = cs::Array::from(vec![7_u64, 8, 9]);
    let (resized, peak) = peak_of(|| small.resized(LEN));
    assert!(peak <= LEN as usize * 8 + slack, "resize: {peak} bytes");
    assert_eq!(
        (
            resized.get(0),
            resized.get(2),
            resized.get(3),
            resized.len()
        ),
        (7, 9, 0, LEN)
    );
    assert_eq!(small.resized(2).to_vec(), [7, 8]);
}
