//! The HTML report in a real browser: headless Chromium loads the page for `tests/failing`
//! and `scenarios/chess`, its DOM must hold every scenario title, and its screenshot must not
//! be blank. Without a browser the test is ignored, with the reason (`build.rs` looks for one),
//! except in CI (`CI=true`), where it fails: there the browser must be installed (`.ci/run`
//! installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longer than a page load ever takes; a hung browser is killed then.
const BROWSER_TIME: Duration = Duration::from_secs(60);

fn browser() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
}

/// Runs the browser with the usual headless flags and `extra`, its standard output into
/// `stdout`; kills it after [`BROWSER_TIME`].
fn run_browser(browser: &Path, profile: &Path, extra: &[String], stdout: &Path) {
    let out = std::fs::File::create(stdout).expect("browser output file");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(Stdio::null())
        .spawn()
        .expect("the browser starts");
    let start = Instant::now();
    loop {
        match child.try_wait().expect("wait for the browser") {
            Some(status) => {
                assert!(status.success(), "the browser failed: {status}");
                return;
            }
            None if start.elapsed() > BROWSER_TIME => {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the browser did not finish in {BROWSER_TIME:?}");
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

#[test]
#[cfg_attr(
    no_browser,
    ignore = "no Chromium on PATH (chromium, chromium-browser, google-chrome) when the tests \
              were built; CI=true requires one"
)]
fn report_renders_in_a_browser() {
    let browser = browser().expect(
        "no browser (chromium, chromium-browser, google-chrome) on PATH; CI must install one",
    );
    let dir = std::env::temp_dir().join(format!("arbiter-html-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let page = dir.join("report.html");
    let o = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "check",
            "tests/failing",
            "scenarios/chess",
            "--format",
            "html",
        ])
        .arg("-o")
        .arg(&page)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    assert_eq!(o.status.code(), Some(2), "tests/failing has unusable files");
    let url = format!("file://{}", page.display());

    let json = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "check",
            "tests/failing",
            "scenarios/chess",
            "--format",
            "json",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("arbiter runs");
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("check JSON");
    let titles: Vec<String> = json["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|f| f["scenarios"].as_array().expect("scenarios").iter())
        .map(|s| s["title"].as_str().expect("title").to_string())
        .collect();
    assert!(titles.len() > 20);

    let dom = dir.join("dom.html");
    run_browser(
        &browser,
        &dir.join("profile-dom"),
        &["--dump-dom".into(), url.clone()],
        &dom,
    );
    let dom = std::fs::read_to_string(&dom).expect("the DOM dump");
    assert!(dom.contains("id=\"summary\""), "the DOM holds the page");
    for title in &titles {
        let escaped = title
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(dom.contains(&escaped), "the DOM lacks {title:?}");
    }

    let png = dir.join("report.png");
    run_browser(
        &browser,
        &dir.join("profile-shot"),
        &[
            format!("--screenshot={}", png.display()),
            "--window-size=1200,2000".into(),
            url,
        ],
        &dir.join("shot.log"),
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png).expect("the screenshot exists"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a buffer size")];
    let frame = reader.next_frame(&mut pixels).expect("PNG pixels");
    assert!(frame.width >= 1000 && frame.height >= 1000, "{frame:?}");
    let step = frame.color_type.samples();
    let pixels = &pixels[..frame.buffer_size()];
    let first = &pixels[..step];
    let other = pixels.chunks(step).filter(|p| *p != first).count();
    // Text, badges and boards: far more than a few stray pixels differ from the page colour.
    assert!(
        other > pixels.len() / step / 100,
        "the screenshot is blank: {other} pixels differ"
    );
    std::fs::remove_dir_all(&dir).ok();
}
