// replay.cjs: opens ReplayWeb.page in headless Chromium (npm
// playwright-core, Debian's chromium) on an archive and waits, up to 60
// s, for the replay frame of URL to have the title WANT; then saves a
// screenshot of the window to SHOT and prints {title, text, ms} as JSON.
// NODE_MODULES names the node_modules folder holding playwright-core.
//
//   node replay.cjs BASE SOURCE URL WANT SHOT
// BASE is where ReplayWeb.page's index.html is served, SOURCE the
// archive's path there (/crawl.wacz).
const path = require('path');
const { chromium } = require(path.join(process.env.NODE_MODULES, 'playwright-core'));
const [base, source, url, want, shot] = process.argv.slice(2);

(async () => {
	const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: process.getuid() === 0 ? ['--no-sandbox'] : [] });
	const page = await browser.newPage();
	const t0 = Date.now();
	await page.goto(`${base}/index.html?source=${encodeURIComponent(source)}#view=replay&url=${encodeURIComponent(url)}`);
	let title = null, text = null;
	// The page arrives in a frame of ReplayWeb.page's own, once its
	// service worker has read the archive: poll its title.
	while (Date.now() - t0 < 60000 && title !== want) {
		for (const f of page.frames()) {
			if (!f.url().includes('mp_/'))
				continue;
			try {
				title = await f.title();
				text = await f.evaluate(() => (document.body ? document.body.innerText : ''));
			} catch (e) {
				// the frame navigated meanwhile: look again
			}
		}
		if (title !== want)
			await page.waitForTimeout(100);
	}
	await page.screenshot({ path: shot });
	console.log(JSON.stringify({ title, text, ms: Date.now() - t0 }));
	await browser.close();
})().catch((e) => {
	console.error('replay: ' + (e && e.stack || e));
	process.exit(1);
});
