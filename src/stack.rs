//! The native stack: commands run on threads with a stack of a known size, large enough for the
//! deepest recursion the documented limits allow.
//!
//! The parser, checker, compiler and interpreter recurse, each bounded by a documented limit
//! (brackets 100 deep, expressions 200 deep, calls 64 deep), but the bounds multiply: a call may
//! sit in 100 nested blocks and 200 operators, 64 times over. That takes about 11 MB of stack in a
//! release build (more in a debug build), more than a main thread (8 MB) or a spawned thread
//! (2 MB) has. The CLI and perft's worker threads therefore run on threads of [`SIZE`]; the memory
//! is only reserved, and pages are used as the recursion reaches them.

/// The stack of every thread a command runs on (address space reserved, not memory used).
pub const SIZE: usize = 256 << 20;

/// A thread builder whose threads have a stack of [`SIZE`].
pub fn builder() -> std::thread::Builder {
    std::thread::Builder::new().stack_size(SIZE)
}

/// Run `f` on a thread with a stack of [`SIZE`], spending this thread's command budget
/// ([`crate::budget`]), and return what it returns; a panic in it is resumed here.
pub fn run<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let budget = crate::budget::current();
    std::thread::scope(|scope| {
        let worker = builder()
            .spawn_scoped(scope, move || crate::budget::under(budget, f))
            .unwrap_or_else(|e| panic!("cannot start a thread: {e}"));
        worker.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}
