//! `--threads`: how many worker threads the parallel searches and `check` use.

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
        builder = builder.num_threads(n);
    }
    builder
        .build_global()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    Ok(rayon::current_num_threads())
}
