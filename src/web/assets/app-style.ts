// The page's one stylesheet, served from /assets: light and dark themes from the system setting,
// one column on a phone, visible focus. Every text colour meets 4.5:1 on its background.
export const APP_STYLE = `:root {
  color-scheme: light dark;
  --bg: #ffffff;
  --surface: #f3f5f8;
  --text: #1f2933;
  --muted: #4b5563;
  --border: #c5ccd6;
  --link: #1d4ed8;
  --accent: #1d4ed8;
  --on-accent: #ffffff;
  --focus: #b45309;
  --error: #b91c1c;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f172a;
    --surface: #1e293b;
    --text: #e5e7eb;
    --muted: #cbd5e1;
    --border: #475569;
    --link: #93c5fd;
    --accent: #93c5fd;
    --on-accent: #0f172a;
    --focus: #fbbf24;
    --error: #fca5a5;
  }
}
*,
*::before,
*::after {
  box-sizing: border-box;
}
body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  /* The CJK faces each system carries after the Latin ones, so Chinese and Japanese titles
     (Luogu, Nowcoder, LeetCode China, AtCoder) never fall back to empty boxes. */
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans CJK SC',
    'Noto Sans CJK JP', 'Source Han Sans SC', 'PingFang SC', 'Hiragino Sans', 'Hiragino Kaku Gothic ProN',
    'Microsoft YaHei', 'Yu Gothic', Meiryo, 'WenQuanYi Micro Hei', sans-serif;
}
a {
  color: var(--link);
}
a:focus-visible,
button:focus-visible,
input:focus-visible,
select:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
}
.skip-link {
  position: absolute;
  left: 8px;
  top: -48px;
  padding: 8px 12px;
  background: var(--accent);
  color: var(--on-accent);
  z-index: 1;
}
.skip-link:focus {
  top: 8px;
}
.visually-hidden {
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
}
header,
main,
footer {
  max-width: 60rem;
  margin: 0 auto;
  padding: 0 16px;
}
header {
  padding-top: 24px;
}
h1 {
  font-size: 1.75rem;
  margin: 0 0 4px;
}
h2 {
  font-size: 1.25rem;
  margin: 24px 0 8px;
}
h3 {
  font-size: 1.05rem;
  margin: 0;
}
.lead,
.note {
  color: var(--muted);
  margin: 0 0 16px;
}
#filters-panel {
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 8px;
}
#filters-panel > summary {
  padding: 10px 16px;
  min-height: 44px;
  cursor: pointer;
}
.filters-label {
  font-weight: 600;
}
#filters {
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
  align-items: flex-end;
  padding: 0 16px 16px;
}
.more-judges > summary {
  padding: 6px 0;
  cursor: pointer;
}
.field-row {
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
}
#next-up {
  padding: 12px 16px;
  margin: 0 0 16px;
  border: 2px solid var(--accent);
  border-radius: 8px;
}
#next-up h2 {
  margin: 0;
  font-size: 1rem;
  color: var(--muted);
}
#next-up .next-name {
  margin: 4px 0;
  font-size: 1.15rem;
  font-weight: 600;
}
#next-up .meta,
#next-up .when {
  margin: 0 0 4px;
  color: var(--muted);
}
#long-challenges {
  margin: 16px 0;
}
#long-challenges > summary {
  cursor: pointer;
  padding: 8px 0;
}
#long-challenges > summary h2 {
  display: inline;
  font-size: 1.25rem;
}
#long-contests {
  list-style: none;
  margin: 0;
  padding: 0;
}
fieldset {
  border: 0;
  margin: 0;
  padding: 0;
}
legend,
.field > label {
  display: block;
  padding: 0;
  font-weight: 600;
  margin-bottom: 4px;
}
.choices {
  display: flex;
  flex-wrap: wrap;
  gap: 4px 16px;
}
.choices label {
  padding: 4px 0;
}
select,
input[type='search'],
input[type='text'],
input[type='email'],
input[type='password'],
input[type='tel'],
input[type='url'],
input[type='time'] {
  font: inherit;
  color: var(--text);
  background: var(--bg);
  border: 1px solid var(--border);
  border-radius: 6px;
  padding: 6px 8px;
  min-height: 40px;
}
input[type='search'] {
  width: 16rem;
  max-width: 100%;
}
button {
  font: inherit;
  min-height: 40px;
  padding: 6px 16px;
  border: 0;
  border-radius: 6px;
  background: var(--accent);
  color: var(--on-accent);
  cursor: pointer;
}
.actions {
  display: flex;
  gap: 16px;
  align-items: center;
}
.subscribe {
  margin: 16px 0 0;
}
#contests {
  list-style: none;
  margin: 0;
  padding: 0;
}
.group-heading {
  margin-top: 8px;
}
.contest {
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 4px 16px;
  padding: 12px 16px;
  margin: 8px 0;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 8px;
}
.contest .meta,
.contest .when {
  margin: 0;
  color: var(--muted);
}
.contest .add-to-calendar {
  grid-column: 2;
  grid-row: 1 / span 3;
  align-self: center;
  white-space: nowrap;
}
.countdown {
  margin-left: 8px;
  font-variant-numeric: tabular-nums;
}
.errors {
  color: var(--text);
  padding-left: 1.25rem;
}
footer {
  margin-top: 32px;
  padding-bottom: 24px;
  color: var(--muted);
}
/* The web app (/app): header navigation, account forms, inline errors and notices. */
.app-nav {
  display: flex;
  flex-wrap: wrap;
  gap: 8px 24px;
  align-items: center;
  justify-content: space-between;
  padding-bottom: 12px;
  border-bottom: 1px solid var(--border);
}
.app-nav .brand {
  font-weight: 700;
  color: var(--text);
  text-decoration: none;
}
.app-nav ul {
  display: flex;
  flex-wrap: wrap;
  gap: 4px 16px;
  align-items: center;
  list-style: none;
  margin: 0;
  padding: 0;
}
.app-nav a[aria-current='page'] {
  font-weight: 700;
}
.app-nav form {
  margin: 0;
}
main > h1 {
  margin-top: 24px;
}
.link-button {
  min-height: 0;
  padding: 0;
  background: none;
  color: var(--link);
  text-decoration: underline;
}
.account-form {
  display: grid;
  gap: 16px;
  max-width: 28rem;
  margin: 16px 0;
}
.account-form .field {
  display: grid;
  gap: 4px;
}
.account-form .field > label {
  margin: 0;
}
input[type='text'],
input[type='email'],
input[type='password'],
input[type='tel'],
input[type='url'],
.secret input {
  width: 100%;
}
.field-invalid input {
  border-color: var(--error);
  border-width: 2px;
}
.hint {
  margin: 0;
  color: var(--muted);
}
.field-error {
  margin: 0;
  color: var(--error);
  font-weight: 600;
}
.form-errors,
.notice,
.callout {
  padding: 12px 16px;
  border-radius: 8px;
  border: 1px solid var(--border);
  background: var(--surface);
}
.form-errors {
  border-color: var(--error);
  border-width: 2px;
}
.form-errors p,
.form-errors ul {
  margin: 0;
}
.notice {
  margin: 16px 0;
}
.button {
  display: inline-block;
  min-height: 40px;
  padding: 8px 16px;
  border-radius: 6px;
  background: var(--accent);
  color: var(--on-accent);
  text-decoration: none;
}
.button-secondary {
  background: var(--bg);
  color: var(--link);
  border: 1px solid var(--border);
}
.alt-signin {
  max-width: 28rem;
}
.divider {
  color: var(--muted);
  margin: 8px 0;
}
.next-steps {
  padding-left: 1.25rem;
}
@media (max-width: 36rem) {
  h1 {
    font-size: 1.4rem;
  }
  #filters {
    flex-direction: column;
    align-items: stretch;
  }
  input[type='search'] {
    width: 100%;
  }
  .contest {
    grid-template-columns: 1fr;
  }
  .contest .add-to-calendar {
    grid-column: 1;
    grid-row: auto;
  }
}
/* The web app's lists (history, followed contests), their filters, pages and buttons. */
.page-filters {
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
  align-items: flex-end;
  margin: 16px 0;
  padding: 16px;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 8px;
}
.list-heading {
  display: flex;
  flex-wrap: wrap;
  gap: 8px 16px;
  align-items: center;
  justify-content: space-between;
}
.list-heading form {
  margin: 24px 0 8px;
}
.cards {
  list-style: none;
  margin: 0;
  padding: 0;
}
.card {
  padding: 12px 16px;
  margin: 8px 0;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 8px;
  overflow-wrap: anywhere;
}
.card.unread {
  border-left: 4px solid var(--accent);
}
.card p,
.card ul {
  margin: 4px 0;
}
.card .meta,
.card .when {
  color: var(--muted);
}
/* A handle's proof by a submission (web/app/handles-page.tsx): below the token, set apart. */
.card .challenge {
  margin-top: 12px;
  padding-top: 8px;
  border-top: 1px solid var(--border);
}
.card .challenge h4 {
  margin: 4px 0;
  font-size: 1rem;
}
.card .challenge form {
  margin: 8px 0;
}
.badge {
  display: inline-block;
  padding: 0 6px;
  border-radius: 4px;
  background: var(--accent);
  color: var(--on-accent);
  font-size: 0.85rem;
  vertical-align: middle;
}
.deliveries {
  padding-left: 1.25rem;
  overflow-wrap: anywhere;
}
.attempts {
  margin: 4px 0 8px;
  padding-left: 1.25rem;
  font-size: 0.9rem;
}
.actions.item-actions {
  flex-wrap: wrap;
  gap: 8px 16px;
  margin-top: 8px;
}
.item-actions form {
  margin: 0;
}
.pager {
  display: flex;
  flex-wrap: wrap;
  gap: 8px 24px;
  align-items: center;
  margin: 16px 0;
}
.field.check {
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
}
.field.check input {
  width: 20px;
  height: 20px;
  margin: 0;
}
.field.check label {
  flex: 1 1 0;
  min-width: 0;
  margin: 0;
  font-weight: 400;
}
.field.check .field-error {
  flex-basis: 100%;
}
.button-danger {
  background: var(--error);
  color: var(--bg);
}
.contest-choice {
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin: 4px 0 0;
}
.contest-choice button {
  min-height: 32px;
  padding: 2px 12px;
}
section + section {
  margin-top: 32px;
}
@media (max-width: 36rem) {
  .page-filters {
    flex-direction: column;
    align-items: stretch;
  }
}
/* The settings page (/app/settings): its contents, one card per section, choices and rows. */
.settings-contents ul {
  display: flex;
  flex-wrap: wrap;
  gap: 4px 16px;
  list-style: none;
  margin: 8px 0 16px;
  padding: 0;
}
.settings-section {
  margin: 16px 0;
  padding: 16px;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 8px;
  overflow-wrap: anywhere;
}
.settings-section h2 {
  margin-top: 0;
}
.settings-section .notice {
  background: var(--bg);
}
.settings-form {
  display: grid;
  gap: 16px;
  max-width: 40rem;
  margin: 16px 0 0;
}
.settings-form .field {
  display: grid;
  gap: 4px;
}
.choice-group {
  display: grid;
  gap: 8px;
  min-width: 0;
}
.choice-group .choice-group legend {
  font-weight: 400;
  color: var(--muted);
}
.choices-stacked {
  flex-direction: column;
}
.choice input[type='checkbox'],
.choice input[type='radio'] {
  width: 18px;
  height: 18px;
  margin: 0 4px 0 0;
  vertical-align: -3px;
}
.choice-hint,
.channel-status {
  display: block;
  margin: 0 0 0 26px;
}
.duration-row {
  display: grid;
  gap: 4px;
}
.duration-inputs {
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
}
.duration-inputs input {
  width: 6rem;
}
.time-pair {
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
}
.settings-section select {
  max-width: 100%;
}
.channel-list {
  display: grid;
  gap: 8px;
  list-style: none;
  margin: 0;
  padding: 0;
}
.channel-list .field-error {
  margin-left: 26px;
}
.channel-tests h3 {
  margin-bottom: 4px;
}
.test-list {
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  list-style: none;
  margin: 8px 0 0;
  padding: 0;
}
.test-list form {
  margin: 0;
}
.push-buttons button[aria-pressed='true'] {
  background: var(--accent);
  color: var(--on-accent);
}
.push-buttons {
  display: flex;
  flex-wrap: wrap;
  gap: 8px 16px;
}
.secret {
  display: grid;
  gap: 8px;
  margin: 16px 0 0;
}
.secret p {
  margin: 0;
}
.secret label {
  font-weight: 600;
}
@media (max-width: 36rem) {
  .settings-section {
    padding: 12px;
  }
  .duration-inputs input {
    width: 4.5rem;
  }
}
/* A handle's rating chart (web/app/rating-chart.tsx): scales to its box, the table beside it
   scrolls on its own rather than the page. */
.rating-chart {
  margin: 16px 0;
}
.rating-chart svg {
  display: block;
  width: 100%;
  max-width: 640px;
  height: auto;
}
.rating-line {
  stroke: var(--text);
  stroke-width: 2;
}
.rating-point {
  fill: var(--text);
}
.rating-chart .tick {
  fill: var(--text);
  font-size: 12px;
}
.table-scroll {
  overflow-x: auto;
  max-width: 100%;
}
.rating-table {
  border-collapse: collapse;
}
.rating-table th,
.rating-table td {
  padding: 4px 8px;
  border-bottom: 1px solid var(--border);
  text-align: left;
}
/* /status: one line a platform, incident, channel and job, wrapping at any width. */
.status-list {
  padding-left: 1.25rem;
}
.status-list li {
  margin: 4px 0;
  overflow-wrap: anywhere;
}
#status-platforms li[data-state='ok'] .state {
  color: var(--muted);
}
`
