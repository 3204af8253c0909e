import { PRESETS } from '@leadflow/accounts-contracts';
import type { AccountSummaryView, AccountView, ApiKeySummaryView, IssuedApiKey } from '@leadflow/accounts-contracts';
import type { ActivityEntryView } from '@leadflow/operator-core';
import type { Page } from '@leadflow/shared-kernel';
import type { OperatorWebhookSubscriptionView, WebhookDeliveryView } from '@leadflow/webhooks-contracts';
import { consoleUrl, csrfField, e, formatInstant, layout } from './console-html';
import { CONSOLE_TEXT, ConsoleLanguage, ConsoleText } from './console-i18n';
import { embeddedJson, USAGE_RANGES_HOURS, UsageSeries } from './console-usage';

/** A webhook subscription as the console lists it (never the secret). */
export type ConsoleSubscription = OperatorWebhookSubscriptionView;

/** Page context: language and the session's CSRF token (every form carries it). */
export interface PageContext {
  lang: ConsoleLanguage;
  csrf: string;
}

const textOf = (lang: ConsoleLanguage): ConsoleText => CONSOLE_TEXT[lang];

function notice(kind: 'ok' | 'error', message: string | null | undefined): string {
  return message ? `<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${e(message)}</p>` : '';
}

/** `GET /console/login`: the admin token form (password field) with the login CSRF token. */
export function renderLoginPage(lang: ConsoleLanguage, loginCsrf: string, error: string | null = null): string {
  const t = textOf(lang);
  const body = `<section class="login">
<h1>${e(t.loginTitle)}</h1>
<p>${e(t.loginHint)}</p>
${notice('error', error)}
<form method="post" action="${e(consoleUrl(lang, '/login'))}">
<input type="hidden" name="csrf" value="${e(loginCsrf)}">
<label for="token">${e(t.token)}</label>
<input type="password" id="token" name="token" autocomplete="current-password" required autofocus>
<button type="submit" id="login">${e(t.login)}</button>
</form>
</section>`;
  return layout({ lang, title: t.loginTitle, csrf: null, here: { path: '/login' }, body });
}

/** An error page (404, 400, 403, 429, 503, 500) with the request id. */
export function renderErrorPage(lang: ConsoleLanguage, csrf: string | null, title: string, message: string, requestId: string): string {
  const t = textOf(lang);
  const body = `<h1>${e(title)}</h1>
${notice('error', message)}
<p class="muted">${e(t.requestId)} : <code>${e(requestId)}</code></p>
<p><a href="${e(consoleUrl(lang, ''))}">${e(t.accounts)}</a></p>`;
  return layout({ lang, title, csrf, here: { path: '' }, body });
}

/** `GET /console`: accounts, newest first, 50 a page. */
export function renderAccountsPage(context: PageContext, page: Page<AccountSummaryView>): string {
  const t = textOf(context.lang);
  const rows = page.data
    .map(
      (account) => `<tr class="account" data-account-id="${e(account.id)}">
<td><a href="${e(consoleUrl(context.lang, `/accounts/${account.id}`))}">${e(account.name)}</a></td>
<td><code>${e(account.id)}</code></td><td>${e(account.timezone)}</td><td>${e(formatInstant(account.created_at))}</td></tr>`,
    )
    .join('\n');
  const next = page.pagination.next_cursor
    ? `<p><a rel="next" href="${e(consoleUrl(context.lang, '', { cursor: page.pagination.next_cursor }))}">${e(t.next)}</a></p>`
    : '';
  const body = `<h1>${e(t.accounts)}</h1>
<p class="muted">${e(t.accountCount(page.pagination.total_count ?? page.data.length))}</p>
${
  page.data.length === 0
    ? `<p>${e(t.noAccounts)}</p>`
    : `<table><thead><tr><th>${e(t.name)}</th><th>id</th><th>${e(t.timezone)}</th><th>${e(t.createdAt)}</th></tr></thead>
<tbody>
${rows}
</tbody></table>`
}
${next}`;
  return layout({ lang: context.lang, title: t.accounts, csrf: context.csrf, here: { path: '' }, body });
}

function usageSection(context: PageContext, title: string, series: UsageSeries, hours: number, here: string): string {
  const t = textOf(context.lang);
  const ranges = USAGE_RANGES_HOURS.map((range) =>
    range === hours
      ? `<strong>${e(t.hoursLabel(range))}</strong>`
      : `<a href="${e(consoleUrl(context.lang, here, { hours: range }))}">${e(t.hoursLabel(range))}</a>`,
  ).join(' · ');
  const totals = series.totals;
  return `<section id="usage">
<h2>${e(title)}</h2>
<p class="muted">${e(t.usageHint(hours))} ${e(t.range)} : ${ranges}</p>
<table class="totals"><caption>${e(t.totals)}</caption>
<thead><tr><th>${e(t.requests)}</th><th>2xx</th><th>4xx</th><th>5xx</th><th>${e(t.rateLimited)}</th><th>${e(t.unknown)}</th></tr></thead>
<tbody><tr id="usage-totals" data-request-count="${totals.request_count}"><td>${totals.request_count}</td><td>${totals.status_2xx}</td><td>${totals.status_4xx}</td><td>${totals.status_5xx}</td><td>${totals.rate_limited_count}</td><td>${totals.status_unknown}</td></tr></tbody></table>
<div class="charts">
<figure><figcaption>${e(t.requestsPerHour)}</figcaption><div class="chart"><canvas id="chart-requests" role="img" aria-label="${e(t.requestsPerHour)}"></canvas></div></figure>
<figure><figcaption>${e(t.latency)}</figcaption><div class="chart"><canvas id="chart-latency" role="img" aria-label="${e(t.latency)}"></canvas></div></figure>
<figure><figcaption>${e(t.errorsByStatus)}</figcaption><div class="chart"><canvas id="chart-errors" role="img" aria-label="${e(t.errorsByStatus)}"></canvas></div></figure>
</div>
<script type="application/json" id="usage-data">${embeddedJson(series)}</script>
</section>`;
}

function keysSection(context: PageContext, accountId: string, keys: ApiKeySummaryView[]): string {
  const t = textOf(context.lang);
  const rows = keys
    .map((key) => {
      const revoke =
        key.lifecycle_state === 'revoked'
          ? ''
          : `<form method="post" action="${e(consoleUrl(context.lang, `/accounts/${accountId}/api-keys/${key.id}/revoke`))}" class="inline">${csrfField(context.csrf)}<button type="submit" class="danger" data-revoke="${e(key.id)}">${e(t.revoke)}</button></form>`;
      return `<tr class="api-key" data-key-id="${e(key.id)}" data-state="${e(key.lifecycle_state)}">
<td><a href="${e(consoleUrl(context.lang, `/accounts/${accountId}/api-keys/${key.id}`))}">${e(key.name)}</a></td>
<td><code>${e(key.prefix)}</code></td><td>${e(key.preset)}</td><td class="state">${e(t.lifecycle[key.lifecycle_state] ?? key.lifecycle_state)}</td>
<td>${e(key.per_hour)}</td><td class="last-used">${key.last_used_at ? e(formatInstant(key.last_used_at)) : e(t.never)}</td><td>${e(formatInstant(key.created_at))}</td><td>${revoke}</td></tr>`;
    })
    .join('\n');
  const presets = Object.keys(PRESETS)
    .map((preset) => `<option value="${e(preset)}">${e(t.presets[preset] ?? preset)}</option>`)
    .join('');
  return `<section id="api-keys">
<h2>${e(t.apiKeys)}</h2>
<table><thead><tr><th>${e(t.name)}</th><th>${e(t.prefix)}</th><th>${e(t.preset)}</th><th>${e(t.state)}</th><th>${e(t.perHour)}</th><th>${e(t.lastUsed)}</th><th>${e(t.createdAt)}</th><th></th></tr></thead>
<tbody>
${rows}
</tbody></table>
<h3>${e(t.newKey)}</h3>
<form method="post" action="${e(consoleUrl(context.lang, `/accounts/${accountId}/api-keys`))}" class="new-key">${csrfField(context.csrf)}
<label>${e(t.name)} <input type="text" name="name" maxlength="200" required></label>
<label>${e(t.preset)} <select name="preset">${presets}</select></label>
<label>${e(t.perHour)} <input type="number" name="per_hour" min="1" max="1000000" placeholder="${e(t.perHourHint)}"></label>
<button type="submit" id="create-key">${e(t.create)}</button>
</form>
</section>`;
}

function subscriptionsTable(context: PageContext, subscriptions: ConsoleSubscription[]): string {
  const t = textOf(context.lang);
  if (subscriptions.length === 0) return `<p>${e(t.noSubscriptions)}</p>`;
  const rows = subscriptions
    .map(
      (subscription) => `<tr class="subscription" data-subscription-id="${e(subscription.id)}"><td><code>${e(subscription.url)}</code></td>
<td>${subscription.events === '*' ? e(t.allEvents) : e(subscription.events.join(', '))}</td><td><code>${e(subscription.api_key_id)}</code></td>
<td class="state">${subscription.disabled_reason ? `${e(t.disabled)} (${e(subscription.disabled_reason)})` : e(t.enabled)}</td><td>${e(formatInstant(subscription.created_at))}</td></tr>`,
    )
    .join('\n');
  return `<table><thead><tr><th>${e(t.url)}</th><th>${e(t.events)}</th><th>${e(t.createdByKey)}</th><th>${e(t.state)}</th><th>${e(t.createdAt)}</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

function deliveriesTable(context: PageContext, accountId: string, deliveries: WebhookDeliveryView[], canRedeliver: boolean): string {
  const t = textOf(context.lang);
  if (deliveries.length === 0) return `<p>${e(t.noDeliveries)}</p>`;
  const rows = deliveries
    .map((delivery) => {
      const redeliver = canRedeliver
        ? `<form method="post" action="${e(consoleUrl(context.lang, `/accounts/${accountId}/webhook-deliveries/${delivery.id}/redeliver`))}" class="inline">${csrfField(context.csrf)}<button type="submit" data-redeliver="${e(delivery.id)}">${e(t.redeliver)}</button></form>`
        : '';
      return `<tr class="delivery" data-delivery-id="${e(delivery.id)}"><td>${e(delivery.event)}</td><td class="status">${e(delivery.status)}</td><td>${e(delivery.attempt)}</td>
<td>${e(delivery.response_status ?? '—')}</td><td>${e(formatInstant(delivery.next_attempt_at))}</td><td>${e(formatInstant(delivery.created_at))}</td><td><code>${e(delivery.subscription_id)}</code></td><td>${redeliver}</td></tr>`;
    })
    .join('\n');
  return `<table><thead><tr><th>${e(t.event)}</th><th>${e(t.status)}</th><th>${e(t.attempts)}</th><th>${e(t.response)}</th><th>${e(t.nextAttempt)}</th><th>${e(t.createdAt)}</th><th>${e(t.subscription)}</th><th></th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

function activityTable(context: PageContext, entries: ActivityEntryView[]): string {
  const t = textOf(context.lang);
  if (entries.length === 0) return `<p>${e(t.noActivity)}</p>`;
  const rows = entries
    .map(
      (entry) => `<tr class="activity" data-type="${e(entry.type)}"><td>${e(formatInstant(entry.created_at))}</td><td>${e(entry.type)}</td>
<td>${e(entry.actor.type)}${entry.actor.name ? ` · ${e(entry.actor.name)}` : ''}</td><td><code>${e(entry.contact_id ?? '—')}</code></td></tr>`,
    )
    .join('\n');
  return `<table><thead><tr><th>${e(t.when)}</th><th>${e(t.type)}</th><th>${e(t.actor)}</th><th>${e(t.contact)}</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

export interface AccountPageData {
  account: AccountView;
  keys: ApiKeySummaryView[];
  usage: UsageSeries;
  hours: number;
  subscriptions: ConsoleSubscription[];
  deliveries: Page<WebhookDeliveryView>;
  activity: Page<ActivityEntryView>;
  canRedeliver: boolean;
  /** A message after an action (key revoked, delivery redelivered) or a refused input. */
  notice?: { kind: 'ok' | 'error'; message: string } | null;
}

/** `GET /console/accounts/{id}`: settings, keys (create, revoke, last use), usage charts, webhooks, recent activity. */
export function renderAccountPage(context: PageContext, data: AccountPageData): string {
  const t = textOf(context.lang);
  const { account } = data;
  const base = `/accounts/${account.id}`;
  const body = `<p class="crumbs"><a href="${e(consoleUrl(context.lang, ''))}">${e(t.accounts)}</a> ›</p>
<h1 id="account-name">${e(account.name)}</h1>
${data.notice ? notice(data.notice.kind, data.notice.message) : ''}
<dl class="facts"><dt>id</dt><dd><code>${e(account.id)}</code></dd><dt>${e(t.timezone)}</dt><dd>${e(account.timezone)}</dd>
<dt>${e(t.features)}</dt><dd>${e(account.features.join(', '))}</dd><dt>${e(t.createdAt)}</dt><dd>${e(formatInstant(account.created_at))}</dd></dl>
${keysSection(context, account.id, data.keys)}
${usageSection(context, t.usage, data.usage, data.hours, base)}
<section id="webhooks">
<h2>${e(t.webhooks)}</h2>
<h3>${e(t.subscriptions)}</h3>
${subscriptionsTable(context, data.subscriptions)}
<h3>${e(t.deliveries)}</h3>
${deliveriesTable(context, account.id, data.deliveries.data, data.canRedeliver)}
${data.deliveries.pagination.has_more ? `<p><a href="${e(consoleUrl(context.lang, `${base}/webhook-deliveries`))}">${e(t.allDeliveries)}</a></p>` : ''}
</section>
<section id="activity">
<h2>${e(t.activity)}</h2>
${activityTable(context, data.activity.data)}
${data.activity.pagination.has_more ? `<p><a href="${e(consoleUrl(context.lang, `${base}/activity`))}">${e(t.allActivity)}</a></p>` : ''}
</section>`;
  return layout({ lang: context.lang, title: account.name, csrf: context.csrf, here: { path: base, query: { hours: data.hours } }, body, charts: true });
}

/** `GET /console/accounts/{id}/api-keys/{key_id}`: one key and its usage charts. */
export function renderKeyPage(context: PageContext, account: AccountView, key: ApiKeySummaryView, usage: UsageSeries, hours: number): string {
  const t = textOf(context.lang);
  const base = `/accounts/${account.id}/api-keys/${key.id}`;
  const body = `<p class="crumbs"><a href="${e(consoleUrl(context.lang, ''))}">${e(t.accounts)}</a> › <a href="${e(consoleUrl(context.lang, `/accounts/${account.id}`))}">${e(account.name)}</a> ›</p>
<h1>${e(t.key)} ${e(key.name)}</h1>
<dl class="facts"><dt>id</dt><dd><code>${e(key.id)}</code></dd><dt>${e(t.prefix)}</dt><dd><code>${e(key.prefix)}</code></dd>
<dt>${e(t.preset)}</dt><dd>${e(key.preset)}</dd><dt>${e(t.state)}</dt><dd class="state">${e(t.lifecycle[key.lifecycle_state] ?? key.lifecycle_state)}</dd>
<dt>${e(t.perHour)}</dt><dd>${e(key.per_hour)}</dd><dt>${e(t.lastUsed)}</dt><dd>${key.last_used_at ? e(formatInstant(key.last_used_at)) : e(t.never)}</dd>
<dt>scopes</dt><dd>${e(key.scopes.join(', '))}</dd></dl>
${usageSection(context, t.usageOfKey, usage, hours, base)}`;
  return layout({ lang: context.lang, title: `${key.name} · ${account.name}`, csrf: context.csrf, here: { path: base, query: { hours } }, body, charts: true });
}

/** The answer to a key creation: the raw key, shown this once (the page is `no-store`). */
export function renderKeyCreatedPage(context: PageContext, account: AccountView, name: string, issued: IssuedApiKey): string {
  const t = textOf(context.lang);
  const body = `<h1>${e(t.keyCreatedTitle)}</h1>
<p>${e(account.name)} · ${e(name)} · <code>${e(issued.prefix)}</code></p>
${notice('ok', t.keyCreatedHint)}
<p><code id="new-key-secret" class="secret" data-key-id="${e(issued.id)}">${e(issued.key)}</code></p>
<p><a href="${e(consoleUrl(context.lang, `/accounts/${account.id}`))}" id="back-to-account">${e(t.backToAccount)}</a></p>`;
  return layout({ lang: context.lang, title: t.keyCreatedTitle, csrf: context.csrf, here: { path: `/accounts/${account.id}` }, body });
}

/** `GET /console/accounts/{id}/webhook-deliveries`: every delivery, 50 a page. */
export function renderDeliveriesPage(context: PageContext, account: AccountView, page: Page<WebhookDeliveryView>, canRedeliver: boolean): string {
  const t = textOf(context.lang);
  const base = `/accounts/${account.id}/webhook-deliveries`;
  const body = `<p class="crumbs"><a href="${e(consoleUrl(context.lang, ''))}">${e(t.accounts)}</a> › <a href="${e(consoleUrl(context.lang, `/accounts/${account.id}`))}">${e(account.name)}</a> ›</p>
<h1>${e(t.deliveries)}</h1>
${deliveriesTable(context, account.id, page.data, canRedeliver)}
${page.pagination.next_cursor ? `<p><a rel="next" href="${e(consoleUrl(context.lang, base, { cursor: page.pagination.next_cursor }))}">${e(t.next)}</a></p>` : ''}`;
  return layout({ lang: context.lang, title: `${t.deliveries} · ${account.name}`, csrf: context.csrf, here: { path: base }, body });
}

/** `GET /console/accounts/{id}/activity`: every activity entry, 50 a page. */
export function renderActivityPage(context: PageContext, account: AccountView, page: Page<ActivityEntryView>): string {
  const t = textOf(context.lang);
  const base = `/accounts/${account.id}/activity`;
  const body = `<p class="crumbs"><a href="${e(consoleUrl(context.lang, ''))}">${e(t.accounts)}</a> › <a href="${e(consoleUrl(context.lang, `/accounts/${account.id}`))}">${e(account.name)}</a> ›</p>
<h1>${e(t.activity)}</h1>
${activityTable(context, page.data)}
${page.pagination.next_cursor ? `<p><a rel="next" href="${e(consoleUrl(context.lang, base, { cursor: page.pagination.next_cursor }))}">${e(t.next)}</a></p>` : ''}`;
  return layout({ lang: context.lang, title: `${t.activity} · ${account.name}`, csrf: context.csrf, here: { path: base }, body });
}
