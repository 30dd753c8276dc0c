/**
 * The console's page: plain HTML, its script and stylesheet beside it under `/__mock/console/`.
 * Every value from the mock is written by the script with DOM text APIs, never into markup.
 */

/** The console's HTML page. */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mock console: applicant-verification</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/__mock/console/console.css">
<script src="/__mock/console/console.js" defer></script>
</head>
<body>
<a class="skip" href="#groups-heading">Skip to the groups</a>
<header class="top">
  <h1>Mock console</h1>
  <p id="live" role="status" aria-live="polite">Connecting to the mock</p>
</header>
<main>
  <div id="error" role="alert" class="error" hidden></div>
  <section class="panel" aria-labelledby="clock-heading">
    <h2 id="clock-heading">Clock</h2>
    <p>Mock time: <output id="clock" aria-live="off">unknown</output></p>
    <div class="row">
      <button type="button" data-advance="3600000">Advance 1 hour</button>
      <button type="button" data-advance="86400000">Advance 1 day</button>
      <button type="button" data-advance="1209600000">Advance 14 days</button>
    </div>
    <form id="advance-form" class="row">
      <span class="field">
        <label for="advance-minutes">Advance by minutes</label>
        <input id="advance-minutes" name="minutes" type="number" min="0" step="1" value="30" inputmode="numeric">
      </span>
      <button type="submit">Advance</button>
    </form>
    <div class="row">
      <button type="button" id="reset" class="danger">Reset the mock</button>
    </div>
  </section>
  <section class="panel" aria-labelledby="filters-heading">
    <h2 id="filters-heading">Filters</h2>
    <form id="filters" class="row" role="search">
      <span class="field">
        <label for="filter-account">Account</label>
        <select id="filter-account"><option value="">All accounts</option></select>
      </span>
      <span class="field">
        <label for="filter-group">Group</label>
        <select id="filter-group"><option value="">All groups</option></select>
      </span>
      <span class="field">
        <label for="filter-correlation">Correlation id</label>
        <input id="filter-correlation" type="search" autocomplete="off">
      </span>
    </form>
  </section>
  <section class="panel wide" aria-labelledby="groups-heading">
    <h2 id="groups-heading" tabindex="-1">Groups and applicants</h2>
    <div id="groups" class="cards"></div>
  </section>
  <section class="panel wide" aria-labelledby="outbox-heading">
    <h2 id="outbox-heading">Outbox</h2>
    <div id="outbox" class="cards"></div>
  </section>
  <section class="panel wide" aria-labelledby="deliveries-heading">
    <h2 id="deliveries-heading">Webhook deliveries</h2>
    <div id="deliveries" class="cards"></div>
  </section>
  <section class="panel wide" aria-labelledby="reports-heading">
    <h2 id="reports-heading">Reports</h2>
    <div id="reports" class="cards"></div>
  </section>
  <section class="panel wide" aria-labelledby="faults-heading">
    <h2 id="faults-heading">Faults</h2>
    <form id="fault-form" class="row">
      <fieldset>
        <legend>Request fault: the next API requests fail</legend>
        <span class="field">
          <label for="fault-status">Status</label>
          <select id="fault-status">
            <option value="503">503 Service Unavailable</option>
            <option value="500">500 Internal Server Error</option>
            <option value="502">502 Bad Gateway</option>
            <option value="429">429 Too Many Requests</option>
          </select>
        </span>
        <span class="field">
          <label for="fault-count">Requests</label>
          <input id="fault-count" type="number" min="1" step="1" value="1" inputmode="numeric">
        </span>
        <span class="field">
          <label for="fault-path">Path (optional)</label>
          <input id="fault-path" type="text" placeholder="/api/v1/applicant_groups" autocomplete="off">
        </span>
        <button type="submit">Inject request fault</button>
      </fieldset>
    </form>
    <form id="webhook-fault-form" class="row">
      <fieldset>
        <legend>Webhook fault: the next deliveries misbehave</legend>
        <span class="field">
          <label for="webhook-fault-kind">Fault</label>
          <select id="webhook-fault-kind">
            <option value="drop">Drop (never delivered)</option>
            <option value="duplicate">Duplicate (delivered twice)</option>
            <option value="reorder">Reorder (held back)</option>
          </select>
        </span>
        <span class="field">
          <label for="webhook-fault-count">Events</label>
          <input id="webhook-fault-count" type="number" min="1" step="1" value="1" inputmode="numeric">
        </span>
        <span class="field">
          <label for="webhook-fault-code">Event code (optional)</label>
          <input id="webhook-fault-code" type="text" placeholder="REPORT_READY" autocomplete="off">
        </span>
        <button type="submit">Inject webhook fault</button>
      </fieldset>
    </form>
    <h3>Pending</h3>
    <ul id="pending-faults" class="plain"></ul>
    <div class="row">
      <button type="button" id="clear-faults">Clear request faults</button>
      <button type="button" id="clear-webhook-faults">Clear webhook faults</button>
    </div>
  </section>
</main>
</body>
</html>
`;
