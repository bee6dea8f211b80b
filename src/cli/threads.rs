//! `--threads`: how many worker threads the parallel searches and `check` use.

/// The most worker threads `--threads` starts: far past any machine's cores, and low enough
/// that starting them (each reserving a 64 MB stack) takes no noticeable time; a mistyped
/// `--threads 100000000000` would otherwise spend minutes starting threads.
pub const MAX_THREADS: usize = 1024;

/// Sets up the process's worker pool with `threads` threads (`None`: one per core). Returns
/// the number of threads the pool has.
pub fn setup(threads: Option<usize>) -> Result<usize, String> {
    let mut builder = rayon::ThreadPoolBuilder::new()
        // Deep searches recurse one frame per ply; a worker gets the main thread's room.
        .stack_size(64 << 20)
        .thread_name(|i| format!("arbiter-worker-{i}"));
    if let Some(n) = threads {
        if n == 0 {
            return Err("--threads must be at least 1".into());
        }
        if n > MAX_THREADS {
            return Err(format!(
                "--threads {n} is more than arbiter starts: at most {MAX_THREADS} (this machine has {} cores)",
                std::thread::available_parallelism().map_or(1, |n| n.get())
            ));
        }
        builder = builder.num_threads(n);
    }
    builder
        .build_global()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    Ok(rayon::current_num_threads())
}
