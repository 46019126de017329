// The agency dashboard: plain DOM, no framework, no build. The token lives in this tab's session
// storage and goes only into the Authorization header of same-origin API requests. Every value
// from the API is written as text (never as HTML).
const TOKEN_KEY = 'webmon-token';
const SYMBOL = {
  up: '✓',
  degraded: '!',
  down: '✕',
  maintenance: '⚙',
  unknown: '?',
  paused: '–',
  unmonitored: '–',
  cancelled: '–',
};
const $ = (id) => document.getElementById(id);
let websites = [];
let refreshTimer = null;

function element(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ''));
  return node;
}

class Unauthorized extends Error {}

async function api(path) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  const response = await fetch(path, {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (response.status === 401 || response.status === 403) throw new Unauthorized();
  if (!response.ok) {
    const problem = await response.json().catch(() => ({}));
    throw new Error(problem.detail || problem.title || `HTTP ${response.status}`);
  }
  return response.json();
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : 'never');

function state(status, text) {
  return element('span', { class: `state ${status}` }, `${SYMBOL[status] ?? ''} ${text}`);
}

/** A line of the last 24 hours' average response times; described in words for screen readers. */
function sparkline(points) {
  const values = points.filter((v) => v !== null);
  const svgNs = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('class', 'spark');
  svg.setAttribute('viewBox', '0 0 96 24');
  svg.setAttribute('role', 'img');
  if (values.length === 0) {
    svg.setAttribute('aria-label', 'No response times in the last 24 hours');
    return svg;
  }
  const max = Math.max(...values, 1);
  const average = Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  svg.setAttribute(
    'aria-label',
    `Response time over 24 hours: average ${average} ms, highest ${Math.max(...values)} ms`,
  );
  const coordinates = points
    .map((v, i) => (v === null ? null : [((i * 96) / 23).toFixed(1), (21 - (v / max) * 18).toFixed(1)]))
    .filter(Boolean);
  const line = document.createElementNS(svgNs, 'polyline');
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  line.setAttribute('points', coordinates.map(([x, y]) => `${x},${y}`).join(' '));
  // A dot per hour, so that a single hour with answers shows too.
  for (const [x, y] of coordinates) {
    const dot = document.createElementNS(svgNs, 'circle');
    dot.setAttribute('cx', x);
    dot.setAttribute('cy', y);
    dot.setAttribute('r', '2');
    dot.setAttribute('fill', 'currentColor');
    svg.append(dot);
  }
  svg.append(line);
  return svg;
}

function showOnly(id) {
  for (const section of ['login', 'overview', 'detail']) $(section).hidden = section !== id;
  $('sign-out').hidden = id === 'login';
}

function renderOverview() {
  const status = $('filter-status').value;
  const customer = $('filter-customer').value;
  const shown = websites.filter(
    (w) => (!status || w.status === status) && (!customer || String(w.customerId) === customer),
  );
  const down = websites.filter((w) => w.status === 'down').length;
  $('summary').textContent = `${websites.length} websites, ${down} down; showing ${shown.length}.`;
  const groups = new Map();
  for (const website of shown) {
    if (!groups.has(website.customerId)) groups.set(website.customerId, []);
    groups.get(website.customerId).push(website);
  }
  const container = $('groups');
  container.replaceChildren();
  for (const [, members] of groups) {
    const title = members[0].customerName;
    const rows = members.map((w) =>
      element(
        'tr',
        {},
        element(
          'td',
          { 'data-label': 'Website' },
          element('button', { type: 'button', class: 'link', onclick: () => openDetail(w) }, w.name),
        ),
        element('td', { 'data-label': 'Status' }, state(w.status, w.statusText)),
        element('td', { 'data-label': 'Last check' }, when(w.lastCheckedAt)),
        element(
          'td',
          { 'data-label': 'Uptime 24 h' },
          w.uptime24hPercent === null ? 'no data' : `${w.uptime24hPercent}%`,
        ),
        element('td', { 'data-label': 'Response time' }, sparkline(w.responseTimes24h)),
      ),
    );
    container.append(
      element(
        'section',
        { class: 'customer', 'aria-label': title },
        element('h3', {}, title),
        element(
          'div',
          { class: 'scroll' },
          element(
            'table',
            {},
            element(
              'thead',
              {},
              element(
                'tr',
                {},
                ...['Website', 'Status', 'Last check', 'Uptime 24 h', 'Response time (24 h)'].map((h) =>
                  element('th', { scope: 'col' }, h),
                ),
              ),
            ),
            element('tbody', {}, ...rows),
          ),
        ),
      ),
    );
  }
  if (shown.length === 0) container.append(element('p', {}, 'No website matches these filters.'));
}

async function loadOverview() {
  const all = [];
  let afterId = null;
  do {
    const page = await api(`/api/dashboard/websites${afterId === null ? '' : `?afterId=${afterId}`}`);
    all.push(...page.items);
    afterId = page.nextAfterId;
  } while (afterId !== null);
  websites = all;
  const select = $('filter-customer');
  const chosen = select.value;
  const customers = new Map(all.map((w) => [w.customerId, w.customerName]));
  select.replaceChildren(
    element('option', { value: '' }, 'All'),
    ...[...customers].map(([id, name]) => element('option', { value: String(id) }, name)),
  );
  select.value = customers.has(Number(chosen)) ? chosen : '';
  renderOverview();
}

async function openDetail(website) {
  showOnly('detail');
  $('detail-title').textContent = website.name;
  $('detail-status').replaceChildren(
    state(website.status, website.statusText),
    ` · ${website.url} · last checked ${when(website.lastCheckedAt)}`,
  );
  $('back').focus();
  const [results, incidents, windows] = await Promise.all([
    api(`/api/websites/${website.id}/results?limit=20`),
    api(`/api/websites/${website.id}/incidents`),
    api(`/api/maintenance-windows?websiteId=${website.id}`),
  ]);
  $('results').tBodies[0].replaceChildren(
    ...results.items.map((r) => {
      const t = r.timings;
      const hops =
        r.redirects
          .map((hop) => {
            const h = hop.timings;
            return h
              ? `${hop.status} ${hop.url} (DNS ${h.dns}, connect ${h.connect}, TLS ${h.tls}, first byte ${h.ttfb} ms)`
              : `${hop.status} ${hop.url}`;
          })
          .join(' → ') || 'none';
      return element(
        'tr',
        {},
        ...[
          when(r.startedAt),
          r.region,
          `${SYMBOL[r.status] ?? ''} ${r.status}`,
          r.httpStatus ?? (r.error ? r.error.code : '—'),
          t.dns,
          t.connect,
          t.tls,
          t.ttfb,
          t.download,
          t.total,
          hops,
        ].map((value, i) =>
          element('td', { 'data-label': $('results').tHead.rows[0].cells[i].textContent }, value),
        ),
      );
    }),
  );
  const incidentItems = (incidents.items ?? incidents).map((i) =>
    element('li', {}, `${when(i.startedAt)} – ${i.resolvedAt ? when(i.resolvedAt) : 'ongoing'}: ${i.cause}`),
  );
  $('incidents').replaceChildren(
    ...(incidentItems.length ? incidentItems : [element('li', {}, 'No incidents.')]),
  );
  const windowItems = (windows.items ?? windows).map((w) =>
    element(
      'li',
      {},
      `${w.title}: ${when(w.startsAt)} – ${when(w.endsAt)} (${w.timezone}${w.recurrence ? `, every ${w.recurrence.interval} ${w.recurrence.frequency}` : ''})`,
    ),
  );
  $('maintenance').replaceChildren(
    ...(windowItems.length ? windowItems : [element('li', {}, 'No maintenance windows.')]),
  );
}

async function start() {
  try {
    await loadOverview();
    showOnly('overview');
    clearInterval(refreshTimer);
    refreshTimer = setInterval(() => loadOverview().catch(() => undefined), 30_000);
  } catch (error) {
    sessionStorage.removeItem(TOKEN_KEY);
    showOnly('login');
    $('login-error').textContent =
      error instanceof Unauthorized
        ? 'That token was not accepted: check it, or ask for a new one.'
        : `The API did not answer: ${error.message}`;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  $('login-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $('token').value.trim());
    $('token').value = '';
    $('login-error').textContent = '';
    start();
  });
  $('sign-out').addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    clearInterval(refreshTimer);
    websites = [];
    showOnly('login');
  });
  $('back').addEventListener('click', () => showOnly('overview'));
  $('filter-status').addEventListener('change', renderOverview);
  $('filter-customer').addEventListener('change', renderOverview);
  if (sessionStorage.getItem(TOKEN_KEY)) start();
  else showOnly('login');
});
