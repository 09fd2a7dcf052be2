//! The memory limit: every byte a bot allocates beyond the host's baseline is
//! counted, and the process ends with a clear message past the limit.
//!
//! Counting in the global allocator is exact: it measures what the bot
//! allocated, not what the allocator or the thread stacks happen to reserve,
//! so a bot is never stopped for memory it did not ask for. It cannot see
//! memory that never passes through the allocator: `thread_local!` storage
//! and statics live in the executable's image. Those are measured from the
//! image before the bot runs ([`check_image`]), and the sandbox caps the
//! whole address space with `RLIMIT_AS` as the last word; the allocator turns
//! the system's refusal into the same clear message.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What a bot may allocate beyond the host's own baseline: 256 MiB, the
/// challenge's rule. [`run`](super::run) holds every engine to it; an engine
/// started with [`run_with_memory_limit`](super::run_with_memory_limit) gets
/// its own allowance instead.
pub const MEMORY_LIMIT_BYTES: usize = 256 * 1024 * 1024;

/// The exit code of an engine process that went over the memory limit.
pub const MEMORY_LIMIT_EXIT_CODE: i32 = 86;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);
/// The bot's allowance, set by the host before anything is measured.
static ALLOWANCE: AtomicUsize = AtomicUsize::new(MEMORY_LIMIT_BYTES);
/// Unlimited until [`arm`] is called once the host has set itself up.
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// A global allocator that enforces the bot's allowance ([`MEMORY_LIMIT_BYTES`]
/// unless the engine was started with another).
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
        granted(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        charge(layout.size());
        // SAFETY: forwarded with the caller's own guarantees.
        granted(unsafe { System.alloc_zeroed(layout) }, layout.size())
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
        granted(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }
}

/// A request the count allowed but the system refused: once the limit is
/// armed that is the sandbox's address-space cap (the bot's thread-locals,
/// statics or stacks took the room), reported like the count's own limit
/// rather than as an anonymous allocation failure.
fn granted(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() && size > 0 && LIMIT.load(Ordering::Relaxed) != usize::MAX {
        let limit = whole_mib(allowance());
        stop(&[
            "memory limit exceeded: the system refused more memory (the engine's whole address \
             space is capped; the bot's heap limit is ",
            &limit,
            " MiB)\n",
        ]);
    }
    ptr
}

fn charge(size: usize) {
    let total = ALLOCATED.fetch_add(size, Ordering::Relaxed) + size;
    if total > LIMIT.load(Ordering::Relaxed) {
        exceeded(total);
    }
}

/// Sets what the bot may allocate beyond the baseline; the host calls it
/// first, before [`check_image`] and [`arm`].
pub(crate) fn set_allowance(bytes: usize) {
    ALLOWANCE.store(bytes, Ordering::Relaxed);
}

/// What the bot may allocate beyond the baseline.
pub(crate) fn allowance() -> usize {
    ALLOWANCE.load(Ordering::Relaxed)
}

/// Starts enforcing the limit: from now on the bot may allocate its
/// allowance beyond what is allocated at this moment.
pub(crate) fn arm() {
    let baseline = ALLOCATED.load(Ordering::Relaxed);
    LIMIT.store(baseline.saturating_add(allowance()), Ordering::Relaxed);
}

/// Reports and ends the process without allocating: we are inside the allocator.
fn exceeded(total: usize) -> ! {
    let held = mib(total);
    let limit = whole_mib(allowance());
    stop(&[
        "memory limit exceeded: the bot tried to hold ",
        &held,
        " MiB beyond the host's baseline; the limit is ",
        &limit,
        " MiB\n",
    ])
}

/// Writes `parts` to stderr and ends the process with
/// [`MEMORY_LIMIT_EXIT_CODE`], without allocating.
fn stop(parts: &[&str]) -> ! {
    let mut message = [0u8; 240];
    let mut len = 0;
    for part in parts {
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
    let baseline = LIMIT.load(Ordering::Relaxed).saturating_sub(allowance());
    whole_mib(total.saturating_sub(baseline))
}

fn whole_mib(bytes: usize) -> MibText {
    let mut value = bytes / (1024 * 1024);
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

/// Memory the executable image claims before any allocation: its loaded
/// segments (code, constants, statics) plus one copy of its thread-local
/// storage per thread of the host (the main thread and the bot's).
///
/// Ends the process with the memory-limit message when that is over the
/// bot's allowance: a bot's `static` or `thread_local!` arrays would
/// otherwise escape the count. Called by the host before the bot's thread
/// starts, so a huge thread-local is never copied for it.
pub(crate) fn check_image() {
    let claimed = image_bytes();
    if claimed > allowance() {
        let size = whole_mib(claimed);
        let limit = whole_mib(allowance());
        stop(&[
            "memory limit exceeded: the bot's statics and thread-locals take ",
            &size,
            " MiB before it allocates anything; the limit is ",
            &limit,
            " MiB\n",
        ]);
    }
}

/// The host's threads that each get a copy of the thread-local storage.
const HOST_THREADS: usize = 2;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn image_bytes() -> usize {
    use libc::{PT_LOAD, PT_TLS, c_int, c_void, dl_phdr_info, size_t};

    /// Sums the segments of the first object listed, the executable itself.
    unsafe extern "C" fn executable_only(
        info: *mut dl_phdr_info,
        _size: size_t,
        total: *mut c_void,
    ) -> c_int {
        // SAFETY: the loader hands valid program headers for the object, and
        // `total` is the usize passed below.
        unsafe {
            let info = &*info;
            let headers = std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum));
            let total = &mut *total.cast::<usize>();
            for header in headers {
                let size = usize::try_from(header.p_memsz).unwrap_or(usize::MAX);
                match header.p_type {
                    PT_LOAD => *total = total.saturating_add(size),
                    PT_TLS => *total = total.saturating_add(size.saturating_mul(HOST_THREADS)),
                    _ => {}
                }
            }
        }
        1
    }

    let mut total: usize = 0;
    // SAFETY: the callback only reads the headers and writes `total`.
    unsafe {
        libc::dl_iterate_phdr(Some(executable_only), (&raw mut total).cast());
    }
    total
}

/// Elsewhere the image is not measured; the counting allocator still holds.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn image_bytes() -> usize {
    0
}
