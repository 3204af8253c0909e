import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Chart.js's UMD bundle (`chart.js` package, exact version in package.json; MIT), read once from
 * node_modules: the console serves it itself (`/console/assets/chart.umd.min.js`), no CDN. Its package
 * exports only the ESM and CJS entries, so the bundle is found beside the CJS entry. Throws when missing.
 */
export function loadChartJsBundle(): string {
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

/**
 * The console's only script (`/console/assets/console.js`, `script-src 'self'`): reads the usage series
 * the page embeds as JSON (`#usage-data`, see UsageSeries) and draws the three charts with Chart.js, no
 * animation. Each drawn canvas gets `data-drawn="true"`; `Chart.getChart(canvas)` gives its data.
 */
export const CONSOLE_SCRIPT = `(function () {
  'use strict';
  var source = document.getElementById('usage-data');
  if (!source || !window.Chart) return;
  var d = JSON.parse(source.textContent);
  var labels = d.hours.map(function (hour) { return hour.slice(5, 10) + ' ' + hour.slice(11, 13) + 'h'; });
  function draw(id, type, datasets, stacked) {
    var canvas = document.getElementById(id);
    if (!canvas) return;
    new window.Chart(canvas, {
      type: type,
      data: { labels: labels, datasets: datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        spanGaps: true,
        interaction: { mode: 'index', intersect: false },
        scales: { x: { stacked: stacked }, y: { stacked: stacked, beginAtZero: true } }
      }
    });
    canvas.setAttribute('data-drawn', 'true');
  }
  draw('chart-requests', 'bar', [{ label: d.labels.requests, data: d.requests, backgroundColor: '#2563eb' }], false);
  draw('chart-latency', 'line', [
    { label: 'p50', data: d.p50, borderColor: '#16a34a', backgroundColor: '#16a34a' },
    { label: 'p95', data: d.p95, borderColor: '#d97706', backgroundColor: '#d97706' },
    { label: 'p99', data: d.p99, borderColor: '#dc2626', backgroundColor: '#dc2626' }
  ], false);
  draw('chart-errors', 'bar', [
    { label: '4xx', data: d.status_4xx, backgroundColor: '#d97706' },
    { label: '5xx', data: d.status_5xx, backgroundColor: '#dc2626' },
    { label: d.labels.rate_limited, data: d.rate_limited, backgroundColor: '#7c3aed' },
    { label: d.labels.unknown, data: d.status_unknown, backgroundColor: '#6b7280' }
  ], true);
})();
`;

/** The console's stylesheet (`/console/assets/console.css`). */
export const CONSOLE_STYLE = `*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1f2933;font-size:15px}
header{display:flex;justify-content:space-between;align-items:center;background:#1f2933;color:#fff;padding:.6rem 1.5rem}
header a{color:#fff;text-decoration:none}header .brand{font-weight:600}
nav{display:flex;gap:1rem;align-items:center}nav .link{color:#fff}
main{max-width:1200px;margin:1.5rem auto;background:#fff;padding:1.5rem 2rem;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.1)}
h1{font-size:1.5rem;margin:.2rem 0 1rem}h2{font-size:1.2rem;margin:2rem 0 .6rem;border-bottom:1px solid #e4e7eb;padding-bottom:.3rem}h3{font-size:1rem;margin:1.2rem 0 .5rem}
table{width:100%;border-collapse:collapse;margin:.5rem 0}th,td{padding:.4rem .5rem;border-bottom:1px solid #e4e7eb;text-align:left;vertical-align:middle}
th{font-weight:600;color:#52606d;font-size:.85rem}caption{text-align:left;color:#52606d;font-size:.85rem;padding:.2rem 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em;color:#334e68}
.muted{color:#616e7c;font-size:.9rem}.crumbs{margin:0;color:#616e7c}
.notice{padding:.6rem .9rem;border-radius:6px}.notice.ok{background:#e3f9e5;color:#05400a}.notice.error{background:#ffe3e3;color:#610404}
form.inline{display:inline;margin:0}
button{font:inherit;padding:.35rem .8rem;border-radius:5px;border:1px solid #9aa5b1;background:#fff;cursor:pointer}
button.danger{border-color:#cf1124;color:#cf1124}button.link{border:none;background:none;padding:0;text-decoration:underline}
button[type=submit]#login,button#create-key{background:#2563eb;border-color:#2563eb;color:#fff}
input,select{font:inherit;padding:.35rem .5rem;border:1px solid #9aa5b1;border-radius:5px}
.login{max-width:420px}.login label{display:block;margin:.8rem 0 .3rem}.login input{width:100%;margin-bottom:.8rem}
form.new-key{display:flex;flex-wrap:wrap;gap:.8rem;align-items:flex-end}form.new-key label{display:flex;flex-direction:column;gap:.2rem;font-size:.85rem;color:#52606d}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}dl.facts dt{color:#52606d}dl.facts dd{margin:0}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:1rem}
figure{margin:0;border:1px solid #e4e7eb;border-radius:6px;padding:.6rem}figcaption{font-size:.85rem;color:#52606d;margin-bottom:.3rem}
.chart{position:relative;height:230px}
.secret{display:inline-block;padding:.6rem .8rem;background:#fffbea;border:1px solid #f0b429;border-radius:6px;font-size:1rem;user-select:all}
`;
