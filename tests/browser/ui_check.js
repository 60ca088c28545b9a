// node ui_check.js URL CTLSOCKET OUTDIR: drive `raidlab ui` in Debian's Chromium through
// puppeteer-core (tests/integration/ui_browser.sh starts the servers).  Each step
// prints "ok STEP" or throws; screenshots go to OUTDIR.  Steps:
//   page     the page renders: four views, no console error, no request but to the server
//   measure  a suite on a simulated drive fills every cell of the grid
//   stop     a long run on a memory target shows live figures, then Stop ends it
//   compare  two saved results side by side: the table names both, the report has charts
//   ask      advise on two small drives answers with a ranking
//   watch    a served raid1's members: fail one, the state shows it; the last copy's
//            fail is refused as raidlab ctl refuses it; rebuild brings it back
'use strict';
const puppeteer = require('puppeteer-core');

const [url, ctlSocket, outDir] = process.argv.slice(2);
const base = new URL(url).origin;
const only = (process.env.UI_STEPS || 'page,measure,stop,compare,ask,watch').split(',');

function check(cond, what) {
  if (!cond) throw new Error(what);
}

async function main() {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    defaultViewport: { width: 1280, height: 900 },
  });
  const problems = [];
  try {
    const page = await browser.newPage();
    page.on('console', (m) => { if (m.type() === 'error') problems.push('console: ' + m.text()); });
    page.on('pageerror', (e) => problems.push('exception: ' + e.message));
    page.on('requestfailed', (r) => {
      // a stopped run's request is aborted on purpose
      if (!r.url().includes('/api/job')) problems.push('failed load: ' + r.url());
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(base + '/') && !r.url().startsWith('about:'))
        problems.push('request outside the server: ' + r.url());
    });
    const text = (sel) => page.$eval(sel, (e) => e.textContent);
    const tab = async (v) => { await page.click(`#tabs button[data-view="${v}"]`); };
    const shot = (name) => page.screenshot({ path: `${outDir}/${name}.png`, fullPage: true });
    const waitText = (sel, re, ms) => page.waitForFunction(
      (s, r) => new RegExp(r).test(document.querySelector(s).textContent), { timeout: ms }, sel, re.source);

    await page.goto(url, { waitUntil: 'load' });
    check((await page.title()) === 'raidlab', 'title');
    const tabs = await page.$$eval('#tabs button', (bs) => bs.map((b) => b.textContent));
    check(tabs.join() === 'Measure,Ask,Compare,Watch', 'tabs: ' + tabs);
    // the drive list comes from `raidlab profiles`
    await page.waitForFunction(() => document.querySelectorAll('#a-drive option').length > 5, { timeout: 20000 });
    console.log('ok page');

    const measure = async (target, label) => {
      await tab('measure');
      await page.$eval('#m-target', (e, v) => { e.value = v; }, target);
      await page.$eval('#m-label', (e, v) => { e.value = v; }, label);
      await page.$eval('#m-size', (e) => { e.value = '16m'; });
      await page.$eval('#m-passes', (e) => { e.value = '1'; });
      await page.$eval('#m-duration', (e) => { e.value = '500ms'; });
      await page.click('#m-start');
      await waitText('#m-status', /^(done|failed|stopped)/, 120000);
      const status = await text('#m-status');
      check(status.startsWith('done'), `measure ${target}: ${status}: ${await text('#m-log')}`);
      const cells = await page.$$eval('#m-grid tbody td.val', (tds) => tds.map((t) => t.textContent));
      check(cells.length === 16, 'grid cells: ' + cells.length);
      check(cells.every((c) => /^\d+\.\d+$/.test(c) && Number(c) > 0), 'grid not filled: ' + cells);
      const cmd = await text('#m-cmd');
      check(cmd.startsWith('raidlab run cdm ') && cmd.includes(target.includes(' ') ? `'--target=${target}'` : target),
        'command line: ' + cmd);
    };
    if (only.includes('measure')) {
      await measure('ssd(850evo)', 'one 850evo');
      await shot('ui-measure');
      console.log('ok measure');
    }

    if (only.includes('stop')) {
      await page.$eval('#m-target', (e) => { e.value = 'mem(size=64m)'; });
      await page.$eval('#m-label', (e) => { e.value = ''; });
      await page.$eval('#m-size', (e) => { e.value = '32m'; });
      await page.$eval('#m-passes', (e) => { e.value = '5'; });
      await page.$eval('#m-duration', (e) => { e.value = '5s'; });
      await page.click('#m-start');
      // live figures: a cell of the running test shows its rate before the test ends
      await page.waitForSelector('#m-grid td.live', { timeout: 30000 });
      const t0 = Date.now();
      await page.click('#m-stop');
      await waitText('#m-status', /^(stopped|done|failed)/, 5000);
      check((await text('#m-status')) === 'stopped', 'status after Stop: ' + await text('#m-status'));
      console.log(`ok stop (${Date.now() - t0} ms)`);
    }

    if (only.includes('compare')) {
      await measure('raid0(ssd(850evo) x2, chunk=64k)', 'raid0 x2');
      await tab('compare');
      await page.waitForFunction(() => document.querySelectorAll('#c-list input').length >= 2, { timeout: 10000 });
      const boxes = await page.$$('#c-list input');
      check(boxes.length === 2, 'saved results: ' + boxes.length + ' (a stopped run is not kept)');
      await boxes[0].click();
      await boxes[1].click();
      await page.click('#c-go');
      await waitText('#c-status', /^(compared|.*error|failed)/, 30000);
      const out = await text('#c-out');
      check(/compared 2 results/.test(await text('#c-status')), 'compare: ' + await text('#c-status'));
      check(out.includes('one 850evo') && out.includes('raid0 x2'), 'compare table: ' + out);
      const report = await page.$eval('#c-report', (f) => f.srcdoc);
      check(report.includes('<svg'), 'the report has no chart');
      check((await text('#c-cmd')).startsWith('raidlab compare '), 'compare command line');
      await shot('ui-compare');
      console.log('ok compare');
    }

    if (only.includes('ask')) {
      await tab('ask');
      await page.select('#a-drive', 'intel-x25v-40');
      await page.$eval('#a-count', (e) => { e.value = '2'; });
      await page.select('#a-platform', 'md');
      await page.$eval('#a-size', (e) => { e.value = '16m'; });
      await page.click('#a-start');
      await waitText('#a-status', /^(answered|failed|stopped)/, 600000);
      check((await text('#a-status')) === 'answered', 'ask: ' + await text('#a-status') + ' ' + await text('#a-log'));
      const ans = await text('#a-out');
      check(/Answer \(throughput\): raid/.test(ans), 'no answer: ' + ans);
      check((await text('#a-cmd')).startsWith('raidlab advise --drives 2xintel-x25v-40 --platform md'),
        'ask command line: ' + await text('#a-cmd'));
      await shot('ui-ask');
      console.log('ok ask');
    }

    if (only.includes('watch') && ctlSocket) {
      await tab('watch');
      await page.$eval('#w-socket', (e, v) => { e.value = v; }, ctlSocket);
      await page.click('#w-watch');
      const states = () => page.$$eval('#w-members tbody tr td:nth-child(2)', (t) => t.map((x) => x.textContent).join(' '));
      const waitStates = (want, ms) => page.waitForFunction(
        (w) => [...document.querySelectorAll('#w-members tbody tr td:nth-child(2)')].map((x) => x.textContent).join(' ') === w,
        { timeout: ms }, want);
      await waitStates('in_sync in_sync', 10000);
      await page.click('#w-members tbody tr[data-member="1"] button[data-verb="fail"]');
      await waitStates('in_sync failed', 10000);
      check((await text('#w-cmd')) === `raidlab ctl ${ctlSocket} fail 1`, 'fail command line: ' + await text('#w-cmd'));
      // the last readable copy: refused, as raidlab ctl refuses it
      await page.click('#w-members tbody tr[data-member="0"] button[data-verb="fail"]');
      await waitText('#w-out', /last readable copy/, 10000);
      check((await states()) === 'in_sync failed', 'a refused fail changed the array: ' + await states());
      await shot('ui-watch');
      await page.click('#w-members tbody tr[data-member="1"] button[data-verb="rebuild"]');
      await waitStates('in_sync in_sync', 60000);
      console.log('ok watch');
    }
    check(problems.length === 0, problems.join('\n'));
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error('FAIL: ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
