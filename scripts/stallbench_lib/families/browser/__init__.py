"""Family `browser` (benches/browser.cc; docs/browser.md): page scenarios in headless Chromium and
Firefox ESR. section.py is the report's section (page_section.py its part for a user's page);
page_input.py and page_summary.py serve the `page` command (commands/page.py). Starting and
driving the browsers themselves is the core's (stallbench_lib/browser/), as Node's is."""
