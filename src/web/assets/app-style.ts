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
  font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
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
#filters {
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
  align-items: flex-end;
  padding: 16px;
  background: var(--surface);
  border: 1px solid var(--border);
  border-radius: 8px;
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
input[type='search'] {
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
`
