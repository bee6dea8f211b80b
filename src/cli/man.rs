//! `arbiter man`: the manual pages, made from the command definitions (clap_mangen): the page
//! of `arbiter` itself, which lists the subcommands as `arbiter-check(1)` and so on, and one
//! page per subcommand with all its flags.

use std::path::Path;

use super::output::Failure;
use super::safe_write::{write_file, Force};

/// Every page: its file name (`arbiter-check.1`) and its roff text, `arbiter.1` first.
fn pages() -> Result<Vec<(String, Vec<u8>)>, Failure> {
    let mut cmd = <super::Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    // Built, so that each subcommand carries its full name and the global flags.
    cmd.build();
    let mut pages = vec![page(cmd.clone())?];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages.push(page(sub.clone())?);
    }
    Ok(pages)
}

fn page(cmd: clap::Command) -> Result<(String, Vec<u8>), Failure> {
    // Every page names the version and the date fixed at build (build.rs), never today's: the
    // pages are the same bytes on every run.
    let man = clap_mangen::Man::new(cmd)
        .date(env!("ARBITER_MAN_DATE"))
        .source(concat!("arbiter ", env!("CARGO_PKG_VERSION")))
        .manual("arbiter manual");
    let mut text = Vec::new();
    man.render(&mut text)
        .map_err(|e| Failure::Input(format!("cannot make the manual page: {e}")))?;
    Ok((man.get_filename(), text))
}

/// Prints the page of `arbiter` or of one subcommand, or writes every page into `dir`.
pub(super) fn man(command: Option<&str>, dir: Option<&Path>) -> Result<i32, Failure> {
    let pages = pages()?;
    if let Some(dir) = dir {
        if command.is_some() {
            return Err(Failure::Input(
                "--dir writes every page; leave out the subcommand".into(),
            ));
        }
        // A missing folder is made, as `import --out` makes its own.
        if !dir.is_dir() {
            std::fs::create_dir_all(dir).map_err(|e| {
                Failure::Input(format!(
                    "--dir {}: cannot make the folder: {e}",
                    crate::text::path(dir)
                ))
            })?;
        }
        for (name, text) in &pages {
            let path = dir.join(name);
            write_file(&path, text, Force(false)).map_err(Failure::Input)?;
            crate::outln!("{}", crate::text::path(&path))?;
        }
        return Ok(0);
    }
    let wanted = match command {
        None => "arbiter.1".to_string(),
        Some(sub) => format!("arbiter-{sub}.1"),
    };
    match pages.iter().find(|(name, _)| *name == wanted) {
        Some((_, text)) => {
            super::output::out(format_args!("{}", String::from_utf8_lossy(text)))?;
            Ok(0)
        }
        None => {
            let names: Vec<&str> = pages
                .iter()
                .filter_map(|(n, _)| n.strip_prefix("arbiter-")?.strip_suffix(".1"))
                .collect();
            Err(Failure::Input(format!(
                "no subcommand `{}`; pages: {}{}",
                crate::text::escape(command.unwrap_or_default()),
                names.join(", "),
                crate::suggest::did_you_mean(command.unwrap_or_default(), names.iter().copied())
            )))
        }
    }
}
