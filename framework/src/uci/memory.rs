//! The memory limit: every byte a bot allocates beyond the host's baseline is
//! counted, and the process ends with a clear message past the limit.
//!
//! Counting in the global allocator (rather than an address-space rlimit) is
//! exact: it measures what the bot allocated, not what the allocator or the
//! thread stacks happen to reserve, so a bot is never stopped for memory it
//! did not ask for.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a bot may allocate beyond the host's own baseline: 256 MiB.
pub const MEMORY_LIMIT_BYTES: usize = 256 * 1024 * 1024;

/// The exit code of an engine process that went over the memory limit.
pub const MEMORY_LIMIT_EXIT_CODE: i32 = 86;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);
/// Unlimited until [`arm`] is called once the host has set itself up.
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// A global allocator that enforces [`MEMORY_LIMIT_BYTES`].
///
/// Bot engine executables declare it (a bot file cannot: `#[global_allocator]`
/// is refused by the challenge rules):
///
/// ```
/// #[global_allocator]
/// static ALLOCATOR: framework::uci::LimitedAllocator = framework::uci::LimitedAllocator;
/// let v = vec![0u8; 1024]; // counted
/// assert_eq!(v.len(), 1024);
/// ```
pub struct LimitedAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator; this type
// only keeps a count beside it.
unsafe impl GlobalAlloc for LimitedAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        charge(layout.size());
        // SAFETY: forwarded with the caller's own guarantees.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        charge(layout.size());
        // SAFETY: forwarded with the caller's own guarantees.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        ALLOCATED.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded with the caller's own guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            charge(new_size - layout.size());
        } else {
            ALLOCATED.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: forwarded with the caller's own guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn charge(size: usize) {
    let total = ALLOCATED.fetch_add(size, Ordering::Relaxed) + size;
    if total > LIMIT.load(Ordering::Relaxed) {
        exceeded(total);
    }
}

/// Starts enforcing the limit: from now on the bot may allocate
/// [`MEMORY_LIMIT_BYTES`] beyond what is allocated at this moment.
pub(crate) fn arm() {
    let baseline = ALLOCATED.load(Ordering::Relaxed);
    LIMIT.store(
        baseline.saturating_add(MEMORY_LIMIT_BYTES),
        Ordering::Relaxed,
    );
}

/// Reports and ends the process without allocating: we are inside the allocator.
fn exceeded(total: usize) -> ! {
    let mut message = [0u8; 160];
    let mut len = 0;
    let held = mib(total);
    for part in [
        "memory limit exceeded: the bot tried to hold ",
        &*held,
        " MiB beyond the host's baseline; the limit is 256 MiB\n",
    ] {
        for &byte in part.as_bytes() {
            if len < message.len() {
                message[len] = byte;
                len += 1;
            }
        }
    }
    // SAFETY: writes our own stack buffer to stderr, then ends the process
    // without running destructors or atexit handlers, which could allocate.
    unsafe {
        libc::write(2, message.as_ptr().cast(), len);
        libc::_exit(MEMORY_LIMIT_EXIT_CODE)
    }
}

/// The bytes held beyond the baseline, in whole MiB, formatted into a fixed
/// buffer (no allocation).
fn mib(total: usize) -> MibText {
    let baseline = LIMIT
        .load(Ordering::Relaxed)
        .saturating_sub(MEMORY_LIMIT_BYTES);
    let mut value = total.saturating_sub(baseline) / (1024 * 1024);
    let mut text = MibText {
        digits: [0; 20],
        start: 20,
    };
    loop {
        text.start -= 1;
        text.digits[text.start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    text
}

struct MibText {
    digits: [u8; 20],
    start: usize,
}

impl std::ops::Deref for MibText {
    type Target = str;
    fn deref(&self) -> &str {
        std::str::from_utf8(&self.digits[self.start..]).unwrap_or("?")
    }
}
