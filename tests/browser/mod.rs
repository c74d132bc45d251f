//! Headless Chromium for the tests that open a page in a real browser (the HTML report, the
//! browser page).

use std::path::PathBuf;

/// Headless Chromium's binary: the tests need it, as they need SML/NJ.
pub fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Some(dir) = std::env::var_os("PATH")
            .iter()
            .flat_map(std::env::split_paths)
            .find(|d| d.join(name).is_file())
        {
            return dir.join(name);
        }
    }
    panic!("these tests open pages in headless Chromium: install it (apt-get install chromium), as .ci/run does");
}
