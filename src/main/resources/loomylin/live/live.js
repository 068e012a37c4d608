// The live view: polls /live every POLL_MS and draws each server port's figures side by side.
'use strict';

const POLL_MS = 400;
const POINTS = 150; // one minute of history at POLL_MS
window.liveErrors = [];
window.addEventListener('error', e => window.liveErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', e => window.liveErrors.push(String(e.reason)));

let shownSummary = null;
const cards = new Map(); // port -> {element, inFlight, rate}
const form = document.getElementById('race');
const message = document.getElementById('race-message');

function fmt(n) {
  return n === null || n === undefined ? '–' : String(n);
}

function chart(canvas, datasets, yTitle) {
  return new Chart(canvas, {
    type: 'line',
    data: { labels: [], datasets: datasets.map(([label, color, dash]) => ({
      label, data: [], borderColor: color, backgroundColor: color, borderWidth: 2, borderDash: dash || [],
      pointRadius: 0, tension: 0.2, spanGaps: true })) },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false,
      scales: { x: { ticks: { maxTicksLimit: 6 }, title: { display: true, text: 'seconds' } },
                y: { beginAtZero: true, title: { display: true, text: yTitle } } },
      plugins: { legend: { labels: { boxWidth: 12 } } },
    },
  });
}

function card(server) {
  const el = document.createElement('section');
  el.className = 'port ' + server.pool.split(':')[0];
  el.dataset.port = server.port;
  el.dataset.pool = server.pool;
  el.innerHTML = `
    <h2>port ${server.port} · ${server.pool}</h2>
    <div class="figures">
      <div>in flight <b class="inflight">0</b></div>
      <div>limit <b class="limit">–</b></div>
      <div>req/s <b class="rps">0</b></div>
      <div>server p50 ms <b class="p50">–</b></div>
      <div>server p99 ms <b class="p99">–</b></div>
      <div>pool OS threads <b class="os-threads">0</b></div>
      <div>busy <b class="busy">0</b></div>
      <div>idle <b class="idle">0</b></div>
      <div>queued <b class="queued">0</b></div>
      <div class="admission" hidden>admitted <b class="admitted">0</b> of <b class="admission-limit">–</b></div>
      <div class="admission" hidden>--max-in-flight <b class="admission-setting">–</b></div>
      <div class="admission" hidden>waiting for admission <b class="admission-queued">0</b></div>
      <div class="admission" hidden>admission wait p99 ms <b class="admission-wait">–</b></div>
      <div class="admission" hidden>refused by admission <b class="admission-refused">0</b></div>
      <div class="admission" hidden>admitted, dropped <b class="admission-dropped">0</b></div>
      <div class="permits" hidden>waiting for a permit <b class="tasks-waiting">0</b></div>
      <div class="db" hidden>database connections in use <b class="db-active">0</b> of <b class="db-size">–</b></div>
      <div class="db" hidden>waiting for a connection <b class="db-pending">0</b></div>
    </div>
    <div class="chart"><canvas class="chart-inflight"></canvas></div>
    <p class="says"></p>
    <div class="chart"><canvas class="chart-rate"></canvas></div>`;
  document.getElementById('ports').appendChild(el);
  return {
    element: el,
    // a server with --max-in-flight also draws its admission limit (moving, with auto) and its waiting requests
    inFlight: chart(el.querySelector('.chart-inflight'),
      [['in flight', '#2e86ab'], ['queued in the pool', '#d1495b'], ['limit', '#5b6475', [6, 4]]]
        .concat(server.admissionLimit === null ? [] : [['admission limit', '#8e44ad', [2, 2]], ['waiting for admission', '#e67e22']]),
      'requests'),
    rate: chart(el.querySelector('.chart-rate'),
      [['req/s', '#1d2330'], ['p50 ms', '#66a182'], ['p99 ms', '#edae49']], 'req/s · ms'),
  };
}

function push(c, label, values) {
  c.data.labels.push(label);
  c.data.datasets.forEach((d, i) => d.data.push(values[i]));
  if (c.data.labels.length > POINTS) {
    c.data.labels.shift();
    c.data.datasets.forEach(d => d.data.shift());
  }
}

// One sentence saying what the viewer sees: what fills up first at this server's bound.
function says(s) {
  if (s.dbSize !== null && (s.dbPending > 0 || s.dbActive >= s.dbSize)) {
    return `${s.dbActive} of ${s.dbSize} database connections in use: the connection pool is the bound; `
      + `${s.dbPending} request${s.dbPending === 1 ? '' : 's'} wait${s.dbPending === 1 ? 's' : ''} for one, refused with 503 after --db-timeout-ms `
      + `(${s.dbTimeouts} so far).`;
  }
  if (s.admissionLimit !== null) {
    return `${s.admitted} of ${s.admissionLimit} admitted requests run (--max-in-flight ${s.admission}`
      + `${s.admissionAlgorithm === 'fixed' ? '' : `: the limit moves between ${s.admissionLimitMin} and ${s.admissionLimitMax}`}); `
      + `${s.admissionQueued} wait${s.admissionQueued === 1 ? 's' : ''} for admission, refused with 503 if they wait too long.`;
  }
  if (s.tasksWaiting !== null) {
    return `${s.tasksRunning} of ${s.requestLimit} task permits in use; `
      + `${s.tasksWaiting} request${s.tasksWaiting === 1 ? '' : 's'} wait${s.tasksWaiting === 1 ? 's' : ''} for a permit, each on a parked virtual thread.`;
  }
  if (s.requestLimit !== null) {
    const held = s.leased ? ` (Jetty's acceptor and selector hold ${s.leased} more)` : '';
    // a growing QueuedThreadPool (qtp:MIN-MAX): the threads it holds now, between its bounds
    const grows = s.minThreads !== null && s.minThreads < s.maxThreads
      ? ` The pool holds ${s.osThreads} threads now: it starts ${s.minThreads} and grows to ${s.maxThreads}.` : '';
    return `${Math.min(s.inFlight, s.requestLimit)} of ${s.requestLimit} request threads serve requests${held}; `
      + `${s.queued} request${s.queued === 1 ? '' : 's'} wait${s.queued === 1 ? 's' : ''} in the pool's queue.${grows}`;
  }
  return `${s.inFlight} request${s.inFlight === 1 ? '' : 's'} in flight, each on its own virtual thread; `
    + `the pool holds ${s.osThreads} OS thread${s.osThreads === 1 ? '' : 's'}, whatever the load.`;
}

function update(live) {
  const label = (live.atMs / 1000).toFixed(1);
  let highest = 1;
  for (const s of live.servers) {
    if (!cards.has(s.port)) cards.set(s.port, card(s));
    const c = cards.get(s.port);
    const q = sel => c.element.querySelector(sel);
    q('.inflight').textContent = s.inFlight;
    q('.limit').textContent = s.requestLimit === null ? 'none' : s.requestLimit;
    q('.rps').textContent = s.rps;
    q('.p50').textContent = fmt(s.p50Ms);
    q('.p99').textContent = fmt(s.p99Ms);
    q('.os-threads').textContent = s.osThreads;
    q('.busy').textContent = s.busy;
    q('.idle').textContent = s.idle;
    q('.queued').textContent = s.queued;
    for (const e of c.element.querySelectorAll('.admission')) e.hidden = s.admissionLimit === null;
    for (const e of c.element.querySelectorAll('.permits')) e.hidden = s.tasksWaiting === null;
    for (const e of c.element.querySelectorAll('.db')) e.hidden = s.dbSize === null;
    q('.db-active').textContent = fmt(s.dbActive);
    q('.db-size').textContent = fmt(s.dbSize);
    q('.db-pending').textContent = fmt(s.dbPending);
    q('.admitted').textContent = fmt(s.admitted);
    q('.admission-limit').textContent = fmt(s.admissionLimit);
    q('.admission-queued').textContent = fmt(s.admissionQueued);
    q('.admission-wait').textContent = fmt(s.admissionWaitP99Ms);
    q('.admission-setting').textContent = fmt(s.admission);
    q('.admission-refused').textContent = fmt(s.admissionRefused);
    q('.admission-dropped').textContent = fmt(s.admissionDropped);
    q('.tasks-waiting').textContent = fmt(s.tasksWaiting);
    q('.says').textContent = says(s);
    push(c.inFlight, label, [s.inFlight, s.queued, s.requestLimit, s.admissionLimit, s.admissionQueued]);
    push(c.rate, label, [s.rps, s.p50Ms, s.p99Ms]);
    highest = Math.max(highest, ...c.inFlight.data.datasets[0].data, ...c.inFlight.data.datasets[1].data);
  }
  for (const c of cards.values()) { // one scale for every port, so the columns compare at a glance
    c.inFlight.options.scales.y.suggestedMax = highest;
    c.inFlight.update('none');
    c.rate.update('none');
  }
  const t = live.threads;
  const owners = Object.entries(t).filter(([k]) => k !== 'total')
    .map(([k, v]) => `${v} ${k === 'jvm' ? "the JVM's own (GC, JIT, timers, clients)" : k === 'carriers' ? 'virtual-thread carriers' : k}`);
  document.getElementById('threads').textContent = `OS threads of this process: ${t.total} = ${owners.join(' + ')}.`;
  const vt = live.virtualThreads;
  document.getElementById('carriers').textContent = vt.known
    ? `Virtual threads: ${vt.mounted} mounted on ${vt.carriers} carrier threads (parallelism ${vt.parallelism}, utilisation ${vt.utilisation}), ${vt.queued} waiting for a carrier.`
    : 'Virtual threads: carriers, mounted and waiting n/a (the scheduler tells them from JDK 24 on).';
  document.getElementById('pinned').textContent = vt.pinned === 'n/a'
    ? 'Pinned virtual threads: n/a (no Flight Recorder in this runtime).'
    : `Pinned virtual threads: ${vt.pinned} pins, ${vt.pinnedSeconds} s pinned in all` + (vt.pinnedWhere.length ? `; most at ${vt.pinnedWhere[0]}` : '') + '.';
  race(live.race);
}

function race(r) {
  const state = document.getElementById('race-state');
  if (!r) { state.textContent = 'No race yet: pick an endpoint and press Start.'; return; }
  const what = `${r.target} with ${r.concurrency} clients per port`;
  state.textContent = r.state === 'running'
    ? `Racing ${what}: ${r.elapsedS} of ${r.seconds} s.`
    : `Last race: ${what}, ${r.state} after ${r.elapsedS} s.`;
  if (r.state === 'running') return;
  const key = JSON.stringify(r);
  if (key === shownSummary) return; // a finished race does not change: draw its table once
  shownSummary = key;
  document.getElementById('summary-box').hidden = false;
  document.getElementById('summary-title').textContent = `(${what}, ${r.elapsedS} s)`;
  const body = document.querySelector('#race-summary tbody');
  body.innerHTML = '';
  for (const p of r.ports) {
    const row = body.insertRow();
    row.dataset.port = p.port;
    for (const v of [p.port, p.pool, p.requests, p.rps, fmt(p.p50Ms), fmt(p.p99Ms), p.errors]) row.insertCell().textContent = v;
  }
}

async function poll() {
  try {
    const answer = await fetch('/live', { cache: 'no-store' });
    if (answer.ok) update(await answer.json());
  } catch (e) {
    document.getElementById('race-state').textContent = 'The admin port does not answer: is Loomylin running?';
  }
  setTimeout(poll, POLL_MS);
}

function say(text, error) {
  message.textContent = text;
  message.className = error ? 'error' : '';
}

form.route.addEventListener('change', () => {
  const option = form.route.selectedOptions[0];
  document.getElementById('parameter-name').textContent = option.dataset.parameter;
  form.value.value = option.dataset.value;
});

form.addEventListener('submit', async event => {
  event.preventDefault();
  const answer = await fetch('/race', { method: 'POST', body: new URLSearchParams(new FormData(form)) });
  if (answer.ok) {
    say('Race started.', false);
    document.getElementById('summary-box').hidden = true;
  } else {
    say((await answer.text()).trim(), true);
  }
});

document.getElementById('stop').addEventListener('click', async () => {
  const answer = await fetch('/race/stop', { method: 'POST' });
  say(answer.ok ? 'Race stopped.' : (await answer.text()).trim(), !answer.ok);
});

poll();
