/**
 * The console's script: one vanilla file, no framework, no build step. It polls
 * `GET /__mock/snapshot` and acts through the control API (the routes a test calls). Every value
 * from the mock reaches the page through `textContent` and text nodes, never as markup.
 */
export const CONSOLE_JS = `'use strict';
(() => {
  const BASE = '/__mock';
  const POLL_MS = 250;
  const $ = (id) => document.getElementById(id);
  const filters = { account: '', group: '', correlation: '' };
  const rendered = {};
  let snapshot = null;
  let loadSeq = 0;
  let shownSeq = 0;

  // An element with attributes and children; strings become text nodes, never markup.
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'className') node.className = value;
      else if (name === 'text') node.textContent = String(value);
      else if (name === 'onClick') node.addEventListener('click', value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children || []) {
      if (child === undefined || child === null || child === false) continue;
      node.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const hidden = (text) => el('span', { className: 'visually-hidden', text });
  const badge = (text, tone) => el('span', { className: 'badge ' + tone, text });
  function fields(pairs) {
    const list = el('dl');
    for (const [term, value] of pairs) {
      if (value === undefined || value === null || value === '') continue;
      list.append(el('dt', { text: term }), el('dd', {}, [value]));
    }
    return list;
  }
  const money = (value) =>
    value === null ? 'no data' : '$' + Number(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const tone = (status) => (status === 'completed' ? 'ok' : status === 'in_progress' ? 'warn' : 'muted');

  function showError(message) {
    const box = $('error');
    box.textContent = message;
    box.hidden = false;
  }
  function hideError() {
    const box = $('error');
    box.textContent = '';
    box.hidden = true;
  }

  async function act(method, path, body) {
    try {
      const init = { method, headers: {} };
      if (body !== undefined) {
        init.headers['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      const response = await fetch(BASE + path, init);
      const text = await response.text();
      let data = null;
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
      if (response.ok) hideError();
      else showError((data && data.message) || method + ' ' + path + ' answered ' + response.status);
    } catch (error) {
      showError('The mock did not answer: ' + error.message);
    }
    await load();
  }

  // Sections are rebuilt only when what they show changed; the focused control keeps focus.
  function section(name, data, build) {
    const key = JSON.stringify(data);
    if (rendered[name] === key) return;
    rendered[name] = key;
    const container = $(name);
    const active = document.activeElement;
    const focusKey = active && container.contains(active) ? active.getAttribute('data-key') : null;
    container.replaceChildren(...build());
    if (focusKey) {
      const again = container.querySelector('[data-key="' + CSS.escape(focusKey) + '"]');
      if (again) again.focus();
    }
  }

  const inAccount = (account) => filters.account === '' || account === filters.account;

  function visibleGroups() {
    const wanted = filters.correlation.trim().toLowerCase();
    return snapshot.groups.filter(
      (group) =>
        inAccount(group.account) &&
        (filters.group === '' || group.id === filters.group) &&
        (wanted === '' || (group.correlationId || '').toLowerCase().includes(wanted)),
    );
  }

  function options(select, entries, allLabel) {
    const current = select.value;
    const wanted = [['', allLabel], ...entries];
    const key = JSON.stringify(wanted);
    if (select.getAttribute('data-options') === key) return;
    select.setAttribute('data-options', key);
    select.replaceChildren(...wanted.map(([value, label]) => el('option', { value, text: label })));
    select.value = wanted.some(([value]) => value === current) ? current : '';
  }

  function memberView(group, member) {
    const name = member.firstName + ' ' + member.lastName;
    const done = member.status === 'completed';
    const reason = member.reasonCompleted === 'not_completed' ? '' : ' (' + member.reasonCompleted + ')';
    return el('div', { className: 'member' }, [
      el('h4', { text: name }),
      fields([
        ['Status', el('span', {}, [badge(member.status.replace('_', ' '), tone(member.status)), reason])],
        ['Email', member.email],
        ['Phone', member.phoneNumber],
        ['Id', el('span', { className: 'mono', text: member.id })],
      ]),
      el('div', { className: 'row' }, [
        el('button', { type: 'button', 'data-key': 'complete:' + member.id, disabled: done,
          onClick: () => act('POST', '/applicants/' + encodeURIComponent(member.id) + '/complete', { reason: 'finished' }) },
          ['Complete', hidden(' ' + name)]),
        el('button', { type: 'button', className: 'secondary', 'data-key': 'fail:' + member.id, disabled: done,
          onClick: () => act('POST', '/applicants/' + encodeURIComponent(member.id) + '/fail', {}) },
          ['Fail', hidden(' ' + name)]),
        el('button', { type: 'button', className: 'secondary', 'data-key': 'reopen:' + member.id, disabled: !done,
          onClick: () => act('POST', '/applicants/' + encodeURIComponent(member.id) + '/reopen') },
          ['Re-open', hidden(' ' + name)]),
      ]),
    ]);
  }

  function groupView(group) {
    return el('article', { className: 'card', 'data-group': group.id }, [
      el('h3', { text: group.property }),
      fields([
        ['Status', el('span', {}, [badge(group.status.replace('_', ' '), tone(group.status)), group.expired ? ' ' : '', group.expired ? badge('expired', 'bad') : ''])],
        ['Family', group.family === 'applicant_group' ? 'applicant group' : 'screening group'],
        ['Decision maker', group.decisionMaker],
        ['Correlation id', group.correlationId],
        ['Account', group.account],
        ['Created', group.createdAt],
        ['Id', el('span', { className: 'mono', text: group.id })],
      ]),
      el('div', { className: 'row' }, [
        el('button', { type: 'button', className: 'secondary', 'data-key': 'expire:' + group.id,
          disabled: group.expired || group.status === 'completed',
          onClick: () => act('POST', '/groups/' + encodeURIComponent(group.id) + '/expire') },
          ['Expire group', hidden(' ' + group.property)]),
      ]),
      ...group.members.map((member) => memberView(group, member)),
    ]);
  }

  function invitationView(entry) {
    return el('article', { className: 'card' }, [
      el('h3', { text: (entry.channel === 'email' ? 'Email to ' : 'Text message to ') + entry.to }),
      fields([
        ['Sent', entry.at],
        ['Subject', entry.subject],
        ['Group', el('span', { className: 'mono', text: entry.groupId })],
      ]),
      el('div', { className: 'message', text: entry.text }),
    ]);
  }

  function deliveryState(delivery) {
    if (delivery.dropped) return badge('dropped by a fault', 'bad');
    if (delivery.delivered) return badge('delivered (' + delivery.status + ')', 'ok');
    if (delivery.attempts === 0) return badge('queued', 'muted');
    return badge('failed (' + (delivery.status === null ? 'no answer' : delivery.status) + ')', 'bad');
  }

  function deliveryView(delivery) {
    const fault = delivery.fault ? Object.keys(delivery.fault)[0] : '';
    return el('article', { className: 'card', 'data-delivery': String(delivery.id) }, [
      el('h3', { text: '#' + delivery.id + ' ' + delivery.code }),
      fields([
        ['Status', deliveryState(delivery)],
        ['Attempts', String(delivery.attempts)],
        ['Signature', delivery.signatureValid ? badge('valid', 'ok') : badge('invalid', 'bad')],
        ['Injected fault', fault],
        ['Error', delivery.error],
        ['Redelivery of', delivery.redeliveryOf === null ? '' : '#' + delivery.redeliveryOf],
        ['Receiver', el('span', { className: 'mono', text: delivery.url })],
        ['Group', delivery.groupId ? el('span', { className: 'mono', text: delivery.groupId }) : ''],
      ]),
      el('details', {}, [el('summary', { text: 'Body' }), el('pre', { className: 'message mono', text: delivery.body })]),
      el('div', { className: 'row' }, [
        el('button', { type: 'button', className: 'secondary', 'data-key': 'redeliver:' + delivery.id,
          onClick: () => act('POST', '/deliveries/' + delivery.id + '/redeliver') },
          ['Redeliver', hidden(' delivery ' + delivery.id)]),
      ]),
    ]);
  }

  function reportView(report) {
    const income = report.reportType === 'income';
    return el('article', { className: 'card', 'data-report': report.id }, [
      el('h3', { text: report.reportType + ' report, ' + report.kind }),
      fields([
        ['Recurring income', income ? money(report.recurringTotal) : ''],
        ['Monthly (3-month average)', income ? money(report.recurringMonthly) : ''],
        ['Non-recurring income', income ? money(report.nonRecurringTotal) : ''],
        ['Expired', report.expired ? badge('expired', 'bad') : ''],
        ['Created', report.createdAt],
        ['Applicant', report.applicantId ? report.applicantName || report.applicantId : 'the household'],
        ['Group', el('span', { className: 'mono', text: report.groupId })],
        ['Id', el('span', { className: 'mono', text: report.id })],
      ]),
      el('p', {}, [el('a', { href: report.pdfPath, 'data-key': 'pdf:' + report.id }, ['Open the PDF', hidden(' of report ' + report.id)])]),
    ]);
  }

  const empty = (text) => [el('p', { className: 'empty', text })];
  const plural = (n, word) => n + ' ' + word + (n === 1 ? '' : 's');

  function render() {
    $('clock').textContent = snapshot.iso;
    options($('filter-account'), snapshot.accounts.map((id) => [id, id]), 'All accounts');
    filters.account = $('filter-account').value;
    options(
      $('filter-group'),
      snapshot.groups.filter((group) => inAccount(group.account)).map((group) => [group.id, group.property + ' (' + group.id.slice(0, 8) + ')']),
      'All groups',
    );
    filters.group = $('filter-group').value;
    const groups = visibleGroups();
    const ids = new Set(groups.map((group) => group.id));
    const narrowed = filters.group !== '' || filters.correlation.trim() !== '';
    const shown = (record) => inAccount(record.account) && (!narrowed || ids.has(record.groupId));
    section('groups', groups, () => (groups.length ? groups.map(groupView) : empty('No groups yet: create one with the SDK.')));
    const outbox = snapshot.outbox.filter(shown);
    section('outbox', outbox, () => (outbox.length ? outbox.map(invitationView) : empty('No invitations sent.')));
    const deliveries = snapshot.deliveries.filter(shown);
    section('deliveries', deliveries, () => (deliveries.length ? deliveries.map(deliveryView) : empty('No webhook deliveries.')));
    const reports = snapshot.reports.filter(shown);
    section('reports', reports, () => (reports.length ? reports.map(reportView) : empty('No reports.')));
    const pending = { faults: snapshot.faults, webhookFaults: snapshot.webhookFaults };
    section('pending-faults', pending, () => {
      const items = [
        ...snapshot.faults.map((entry) =>
          el('li', { text: 'Request fault ' + JSON.stringify(entry.fault) + ' for the next ' + plural(entry.remaining, 'request') + (entry.match ? ' matching ' + JSON.stringify(entry.match) : '') }),
        ),
        ...snapshot.webhookFaults.map((entry) =>
          el('li', { text: 'Webhook fault ' + Object.keys(entry.fault)[0] + ' for the next ' + plural(entry.remaining, 'event') + (entry.match ? ' matching ' + JSON.stringify(entry.match) : '') }),
        ),
      ];
      return items.length ? items : [el('li', { className: 'empty', text: 'None.' })];
    });
  }

  async function load() {
    const seq = ++loadSeq;
    try {
      const response = await fetch(BASE + '/snapshot', { cache: 'no-store' });
      if (!response.ok) throw new Error('the snapshot answered ' + response.status);
      const data = await response.json();
      if (seq < shownSeq) return;
      shownSeq = seq;
      snapshot = data;
      render();
      const live = $('live');
      if (live.textContent !== 'Live: the page follows the mock') live.textContent = 'Live: the page follows the mock';
    } catch (error) {
      $('live').textContent = 'Disconnected from the mock (' + error.message + '): retrying';
    }
  }

  async function poll() {
    await load();
    setTimeout(poll, POLL_MS);
  }

  function onFilters() {
    filters.account = $('filter-account').value;
    filters.group = $('filter-group').value;
    filters.correlation = $('filter-correlation').value;
    if (snapshot) render();
  }

  function wire() {
    for (const button of document.querySelectorAll('[data-advance]')) {
      button.addEventListener('click', () => act('POST', '/clock/advance', { ms: Number(button.getAttribute('data-advance')) }));
    }
    $('advance-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const minutes = Number($('advance-minutes').value);
      if (!Number.isFinite(minutes) || minutes < 0) return showError('Advance by a number of minutes, 0 or more.');
      act('POST', '/clock/advance', { ms: Math.round(minutes * 60000) });
    });
    $('reset').addEventListener('click', () => act('POST', '/reset'));
    $('filters').addEventListener('submit', (event) => event.preventDefault());
    $('filters').addEventListener('input', onFilters);
    $('filters').addEventListener('change', onFilters);
    $('fault-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const path = $('fault-path').value.trim();
      act('POST', '/faults', {
        count: Number($('fault-count').value) || 1,
        fault: { status: Number($('fault-status').value) },
        ...(path ? { match: { path } } : {}),
      });
    });
    $('webhook-fault-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const code = $('webhook-fault-code').value.trim();
      act('POST', '/webhook-faults', {
        count: Number($('webhook-fault-count').value) || 1,
        fault: { [$('webhook-fault-kind').value]: true },
        ...(code ? { match: { code } } : {}),
      });
    });
    $('clear-faults').addEventListener('click', () => act('DELETE', '/faults'));
    $('clear-webhook-faults').addEventListener('click', () => act('DELETE', '/webhook-faults'));
  }

  wire();
  poll();
})();
`;
