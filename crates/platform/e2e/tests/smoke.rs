//! The browser smoke test: the page loads in Chromium and the API answers from it.

use acies_e2e::{Server, browser, testid};

#[test]
fn the_page_loads_and_the_api_answers() {
    let browser = browser();
    let server = Server::start();
    let page = browser.page(&server.url("/")).expect("page");
    page.wait_for(testid("app")).expect("the app element");
    // The UI replaces the loading text with the lobby.
    page.wait_until("!document.querySelector('[data-testid=app] .loading')")
        .expect("the UI starts");
    let presets = page
        .eval("return await fetch('/api/onus/catalog').then((r) => r.json()).then((c) => c.presets.length)")
        .expect("fetch from the page");
    assert!(
        presets.as_u64().is_some_and(|n| n > 0),
        "presets: {presets}"
    );
    let title = page.eval("document.title").expect("title");
    assert!(title.as_str().is_some_and(|t| !t.is_empty()));
    let shot = page.screenshot("smoke-lobby").expect("screenshot");
    assert!(shot.is_file());
    let problems = page.problems().expect("problems");
    assert!(
        problems.is_empty(),
        "the page reported errors: {problems:?}"
    );
    // And the API itself, from the test.
    let (status, catalog) = server.get_json("/api/onus/catalog").expect("catalog");
    assert_eq!(status, 200);
    assert!(
        catalog["deck"]["cards"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    );
}
