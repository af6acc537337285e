// Drives `trainforge lsp` with vscode-languageserver-protocol's node
// client side (StreamMessageReader/Writer on a spawned server) the way an
// editor does: initialize, open, change, a burst of changes, save, close,
// shutdown, exit. Prints RESULT lines; exits 1 on a failure.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const rpc = require('vscode-languageserver-protocol/node');

const root = path.resolve(__dirname, '../..');
const TF = process.env.TF || path.join(root, 'build/rel/trainforge');
let failed = 0;

function result(ok, name, detail) {
	console.log(`RESULT ${ok ? 'pass' : 'fail'} lsp/${name}${ok || !detail ? '' : ': ' + detail}`);
	if (!ok)
		failed++;
}

function file(rel) {
	const abs = path.join(root, rel);
	return { uri: pathToFileURL(abs).href, text: fs.readFileSync(abs, 'utf8') };
}

function frame(obj) {
	const body = Buffer.from(JSON.stringify(obj), 'utf8');
	return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

function start(args = []) {
	const proc = spawn(TF, ['lsp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
	const srv = { proc, published: [], waiters: new Set(), stderr: '', logs: [] };
	proc.stderr.on('data', (d) => { srv.stderr += d; });
	srv.exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
	srv.conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout),
		new rpc.StreamMessageWriter(proc.stdin));
	srv.conn.onError(() => {});
	srv.conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
		srv.published.push(p);
		for (const w of [...srv.waiters])
			w();
	});
	srv.conn.onNotification(rpc.LogMessageNotification.type, (p) => srv.logs.push(p.message));
	srv.conn.listen();
	return srv;
}

// The first publish (from index `from` on) that matches pred.
function waitFor(srv, pred, what, from = 0, ms = 10000) {
	return new Promise((resolve, reject) => {
		let timer;
		const check = () => {
			const hit = srv.published.slice(from).find(pred);
			if (!hit)
				return false;
			clearTimeout(timer);
			srv.waiters.delete(check);
			resolve(hit);
			return true;
		};
		if (check())
			return;
		timer = setTimeout(() => {
			srv.waiters.delete(check);
			reject(new Error(`timed out waiting for ${what}; stderr: ${srv.stderr}`));
		}, ms);
		srv.waiters.add(check);
	});
}

const published = (srv, uri, version) =>
	waitFor(srv, (p) => p.uri === uri && (version === undefined || p.version === version),
		`diagnostics for ${uri} v${version}`);
const byCode = (p, code) => p.diagnostics.filter((d) => d.code === code);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pos = (d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`;

async function initialize(srv, encodings) {
	return srv.conn.sendRequest(rpc.InitializeRequest.type, {
		processId: process.pid,
		rootUri: pathToFileURL(root).href,
		capabilities: {
			general: { positionEncodings: encodings },
			textDocument: { publishDiagnostics: { versionSupport: true, codeDescriptionSupport: true } },
		},
	});
}

function open(srv, doc, version = 1, languageId = 'yaml') {
	return srv.conn.sendNotification(rpc.DidOpenTextDocumentNotification.type,
		{ textDocument: { uri: doc.uri, languageId, version, text: doc.text } });
}

function change(srv, uri, version, text) {
	return srv.conn.sendNotification(rpc.DidChangeTextDocumentNotification.type,
		{ textDocument: { uri, version }, contentChanges: [{ text }] });
}

async function expectError(name, promise, code) {
	try {
		await promise;
		result(false, name, 'no error');
	} catch (e) {
		result(e.code === code, name, `error code ${e.code}, expected ${code}`);
	}
}

async function utf16Session() {
	const srv = start();
	const init = await initialize(srv, ['utf-16']);
	const caps = init.capabilities;
	const sync = caps.textDocumentSync || {};
	result(sync.change === 1 && sync.openClose === true && sync.save !== undefined,
		'initialize-capabilities', JSON.stringify(caps));
	result(caps.positionEncoding === 'utf-16', 'initialize-utf16-when-not-offered-utf8', caps.positionEncoding);
	result(init.serverInfo && init.serverInfo.name === 'trainforge', 'initialize-server-info');
	await srv.conn.sendNotification(rpc.InitializedNotification.type, {});

	const cluster = file('examples/broken/cluster.yaml');
	await open(srv, cluster);
	let p = await published(srv, cluster.uri, 1);
	result(p.diagnostics.length === 14, 'broken-cluster-count', `${p.diagnostics.length} diagnostics`);
	const minmax = byCode(p, 'PC2201');
	result(minmax.length === 1 && minmax[0].range.start.line === 18 && minmax[0].range.start.character === 20,
		'broken-cluster-PC2201-position', minmax.map(pos).join(' '));
	const d = minmax[0] || {};
	result(d.severity === 1 && d.source === 'trainforge' &&
		/^https?:\/\/.*\/docs\/rules\.md#pc2201-min-count-above-max$/.test((d.codeDescription || {}).href) &&
		/MinCount 8 is above MaxCount 4/.test(d.message), 'diagnostic-fields', JSON.stringify(d));
	const warn = byCode(p, 'PC2002')[0] || {};
	result(warn.severity === 2, 'warning-severity-2', JSON.stringify(warn));
	const hyphen = byCode(p, 'PC1004')[0];
	result(hyphen && pos(hyphen) === '29:24-29:35', 'utf16-columns', hyphen && pos(hyphen));
	const withHelp = p.diagnostics.filter((x) => /\nhelp: /.test(x.message));
	result(withHelp.length > 0, 'message-carries-help');

	const fixed = cluster.text.replace('MinCount: 8', 'MinCount: 2');
	await change(srv, cluster.uri, 2, fixed);
	p = await published(srv, cluster.uri, 2);
	result(byCode(p, 'PC2201').length === 0 && p.diagnostics.length === 13, 'didChange-fixes-PC2201',
		`${p.diagnostics.length} diagnostics, PC2201 x${byCode(p, 'PC2201').length}`);

	// three edits in one write: the server drains them and lints once
	const before = srv.published.length;
	const burst = Buffer.concat([3, 4, 5].map((v) => frame({ jsonrpc: '2.0', method: 'textDocument/didChange',
		params: { textDocument: { uri: cluster.uri, version: v },
			contentChanges: [{ text: v === 5 ? cluster.text : fixed + `# edit ${v}\n` }] } })));
	srv.proc.stdin.write(burst);
	p = await published(srv, cluster.uri, 5);
	await sleep(300);
	const burstVersions = srv.published.slice(before).filter((x) => x.uri === cluster.uri).map((x) => x.version);
	result(burstVersions.join() === '5', 'burst-lints-once', `published versions ${burstVersions.join()}`);
	result(byCode(p, 'PC2201').length === 1, 'burst-lints-latest-text');

	const spec = file('tests/cases/JS2001/bad.yaml');
	await open(srv, spec);
	p = await published(srv, spec.uri, 1);
	const js = byCode(p, 'JS2001')[0];
	result(js && pos(js).startsWith('6:10-'), 'jobspec-rule', js ? pos(js) : JSON.stringify(p.diagnostics));
	const moe = file('examples/jobs/moe-176b-trn2.yaml');
	await open(srv, moe);
	p = await published(srv, moe.uri, 1);
	result(p.diagnostics.length === 0, 'jobspec-clean', JSON.stringify(p.diagnostics));

	const script = file('tests/cases/SB2002/bad.sbatch');
	await open(srv, script, 1, 'shellscript');
	p = await published(srv, script.uri, 1);
	const sb = byCode(p, 'SB2002')[0];
	result(sb && pos(sb).startsWith('11:0-'), 'sbatch-SB2002', sb ? pos(sb) : JSON.stringify(p.diagnostics));
	// one defect, one finding: the idle nodes (SB2001) are said in SB2002's help
	result(byCode(p, 'SB2001').length === 0, 'sbatch-SB2001-in-SB2002',
		JSON.stringify(p.diagnostics.map((x) => x.code)));
	result(!p.diagnostics.some((x) => /^SC/.test(x.code)), 'shellcheck-off-by-default');

	// paired with examples/broken/cluster.yaml by its `# trainforge cluster=` comment
	const paired = file('examples/broken/train.sbatch');
	await open(srv, paired, 1, 'shellscript');
	p = await published(srv, paired.uri, 1);
	const part = byCode(p, 'SB3001')[0];
	result(part && /not a queue of .*examples\/broken\/cluster\.yaml/.test(part.message), 'sbatch-paired-by-comment',
		part ? part.message : JSON.stringify(p.diagnostics.map((x) => x.code)));

	const untitled = { uri: 'untitled:Untitled-1', text: cluster.text };
	await open(srv, untitled);
	p = await published(srv, untitled.uri, 1);
	result(p.diagnostics.length === 14, 'untitled-document', `${p.diagnostics.length} diagnostics`);

	const emoji = { uri: pathToFileURL(path.join(root, 'examples/broken/emoji.yaml')).href,
		text: cluster.text.replace('p5\u2011', 'p5\u{1F600}\u2011') };
	await open(srv, emoji);
	p = await published(srv, emoji.uri, 1);
	const astral = byCode(p, 'PC1004')[0];
	result(astral && pos(astral) === '29:24-29:37', 'utf16-astral-columns', astral && pos(astral));

	let mark = srv.published.length;
	await srv.conn.sendNotification(rpc.DidSaveTextDocumentNotification.type, { textDocument: { uri: cluster.uri } });
	await waitFor(srv, (x) => x.uri === paired.uri, 'a re-lint of the script after a save', mark);
	result(true, 'didSave-relints');

	mark = srv.published.length;
	await srv.conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri: cluster.uri } });
	p = await waitFor(srv, (x) => x.uri === cluster.uri, 'the publish on close', mark);
	result(Array.isArray(p.diagnostics) && p.diagnostics.length === 0, 'didClose-publishes-empty', JSON.stringify(p));

	await expectError('unknown-request-method-not-found', srv.conn.sendRequest('textDocument/hover',
		{ textDocument: { uri: spec.uri }, position: { line: 0, character: 0 } }), -32601);
	const down = await srv.conn.sendRequest(rpc.ShutdownRequest.type);
	result(down === null || down === undefined, 'shutdown-result-null');
	await expectError('request-after-shutdown-invalid', srv.conn.sendRequest('textDocument/hover', {}), -32600);
	await srv.conn.sendNotification(rpc.ExitNotification.type);
	const ex = await srv.exited;
	result(ex.code === 0, 'exit-after-shutdown-code-0', `code ${ex.code} signal ${ex.signal}`);
	srv.conn.dispose();
}

async function utf8Session() {
	const srv = start();
	const init = await initialize(srv, ['utf-8', 'utf-16']);
	result(init.capabilities.positionEncoding === 'utf-8', 'initialize-utf8-when-offered', init.capabilities.positionEncoding);
	await srv.conn.sendNotification(rpc.InitializedNotification.type, {});
	const cluster = file('examples/broken/cluster.yaml');
	cluster.text = cluster.text.replace('p5\u2011', 'p5\u{1F600}\u2011');
	await open(srv, cluster);
	const p = await published(srv, cluster.uri, 1);
	const hyphen = byCode(p, 'PC1004')[0];
	result(hyphen && pos(hyphen) === '29:24-29:41', 'utf8-columns', hyphen && pos(hyphen));
	await srv.conn.sendNotification(rpc.ExitNotification.type);
	const ex = await srv.exited;
	result(ex.code === 1, 'exit-without-shutdown-code-1', `code ${ex.code} signal ${ex.signal}`);
	srv.conn.dispose();
}

// --shellcheck auto: shellcheck's findings on the unsaved text, under
// their SC codes, linked to shellcheck's wiki
async function shellcheckSession() {
	const which = require('child_process').spawnSync('sh', ['-c', 'command -v shellcheck']);
	if (which.status !== 0) {
		console.log('RESULT skip lsp/shellcheck-auto: shellcheck is not installed');
		return;
	}
	const srv = start(['--shellcheck', 'auto']);
	await initialize(srv, ['utf-8']);
	await srv.conn.sendNotification(rpc.InitializedNotification.type, {});
	const doc = { uri: pathToFileURL(path.join(root, 'tests/lsp/unsaved.sbatch')).href,
		text: '#!/bin/bash\n#SBATCH --nodes=1\necho $1\n' };
	await open(srv, doc, 1, 'shellscript');
	const p = await published(srv, doc.uri, 1);
	const sc = byCode(p, 'SC2086')[0];
	result(sc && pos(sc).startsWith('2:5-') && sc.codeDescription.href === 'https://www.shellcheck.net/wiki/SC2086',
		'shellcheck-auto', JSON.stringify(p.diagnostics));
	await srv.conn.sendRequest(rpc.ShutdownRequest.type);
	await srv.conn.sendNotification(rpc.ExitNotification.type);
	await srv.exited;
	srv.conn.dispose();
}

// The text with one LSP TextEdit applied (UTF-16 positions: JavaScript's own).
function applyEdit(text, edit) {
	const lines = text.split('\n');
	const offset = (p) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
	return text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
}

const codeActions = (srv, uri, range, diagnostics) => srv.conn.sendRequest(rpc.CodeActionRequest.type,
	{ textDocument: { uri }, range, context: { diagnostics } });
const editOf = (action, uri) => ((action.edit || {}).changes || {})[uri] || [];
// the fixes of findings, without the "Disable ID for this line/file" actions
const fixesOnly = (actions) => actions.filter((a) => !/^Disable /.test(a.title));

// textDocument/codeAction: each fix of a finding in the range, with the
// diagnostic it fixes; applying one through the client's edit fixes it.
async function codeActionSession() {
	const srv = start();
	const init = await initialize(srv, ['utf-16']);
	const cap = init.capabilities.codeActionProvider || {};
	result((cap.codeActionKinds || []).includes('quickfix'), 'code-action-capability', JSON.stringify(cap));
	await srv.conn.sendNotification(rpc.InitializedNotification.type, {});
	const cluster = file('examples/broken/cluster.yaml');
	await open(srv, cluster);
	let p = await published(srv, cluster.uri, 1);

	// the look-alike: the safe fix writes ASCII, the unsafe one the instance type meant
	const hyphen = byCode(p, 'PC1004')[0];
	let actions = await codeActions(srv, cluster.uri, hyphen.range, [hyphen]);
	const mine = fixesOnly(actions).filter((a) => (a.diagnostics || []).some((d) => d.code === 'PC1004'));
	const safe = mine.find((a) => a.isPreferred), unsafe = mine.find((a) => !a.isPreferred);
	result(mine.length === 2 && mine.every((a) => a.kind === 'quickfix'), 'code-action-two-fixes',
		JSON.stringify(actions.map((a) => a.title)));
	const se = safe ? editOf(safe, cluster.uri) : [], ue = unsafe ? editOf(unsafe, cluster.uri) : [];
	result(se.length === 1 && se[0].newText === '-' && pos(se[0]) === '29:26-29:27', 'code-action-safe-edit',
		JSON.stringify(se));
	result(ue.length === 1 && ue[0].newText === 'p5.48xlarge' && pos(ue[0]) === '29:24-29:35',
		'code-action-unsafe-edit', JSON.stringify(ue));
	result(safe && JSON.stringify(safe.diagnostics[0]) === JSON.stringify(hyphen), 'code-action-carries-the-diagnostic',
		safe && JSON.stringify(safe.diagnostics[0]));

	// an enum's did-you-mean; and nothing for a finding without a fix
	const spot = byCode(p, 'PC0005')[0];
	actions = await codeActions(srv, cluster.uri, spot.range, [spot]);
	const enumFix = actions.find((a) => a.diagnostics[0].code === 'PC0005');
	result(enumFix && editOf(enumFix, cluster.uri)[0].newText === 'SPOT' && enumFix.isPreferred,
		'code-action-did-you-mean', JSON.stringify(actions));
	const minmax = byCode(p, 'PC2201')[0];
	actions = await codeActions(srv, cluster.uri, minmax.range, [minmax]);
	result(!fixesOnly(actions).some((a) => a.diagnostics[0].code === 'PC2201'), 'code-action-none-without-a-fix',
		JSON.stringify(actions));

	// the client applies the unsafe edit; the next lint has neither finding
	const text = applyEdit(applyEdit(cluster.text, ue[0]), editOf(enumFix, cluster.uri)[0]);
	await change(srv, cluster.uri, 2, text);
	p = await published(srv, cluster.uri, 2);
	result(byCode(p, 'PC1004').length === 0 && byCode(p, 'PC1002').length === 0 &&
		byCode(p, 'PC0005').length === 0, 'code-action-edit-fixes',
		JSON.stringify(p.diagnostics.map((d) => d.code)));
	await expectError('code-action-without-range', srv.conn.sendRequest('textDocument/codeAction',
		{ textDocument: { uri: cluster.uri } }), -32602);
	const none = await codeActions(srv, 'file:///not/open.yaml', hyphen.range, []);
	result(Array.isArray(none) && none.length === 0, 'code-action-unknown-document', JSON.stringify(none));
	await srv.conn.sendRequest(rpc.ShutdownRequest.type);
	await srv.conn.sendNotification(rpc.ExitNotification.type);
	await srv.exited;
	srv.conn.dispose();
}

// base: in .trainforge.yaml: the server also reviews the unsaved text of
// a cluster config against its version at that git revision, in a real
// repository made here
async function baseSession() {
	const { execFileSync } = require('child_process');
	const os = require('os');
	const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-lsp-base-'));
	const git = (...args) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
	try {
		git('init', '-q');
		git('config', 'user.email', 'test@example.invalid');
		git('config', 'user.name', 'trainforge-test');
		const committed = fs.readFileSync(path.join(root, 'examples/clusters/trn2-48xlarge.yaml'), 'utf8');
		fs.writeFileSync(path.join(repo, 'cluster.yaml'), committed);
		fs.writeFileSync(path.join(repo, '.trainforge.yaml'), 'base: HEAD\n');
		git('add', '.');
		git('commit', '-qm', 'cluster');
		const srv = start();
		await initialize(srv, ['utf-16']);
		await srv.conn.sendNotification(rpc.InitializedNotification.type, {});
		const doc = { uri: pathToFileURL(path.join(repo, 'cluster.yaml')).href,
			text: committed.replace('InstanceType: c5.4xlarge', 'InstanceType: c5.9xlarge') };
		await open(srv, doc);
		let p = await published(srv, doc.uri, 1);
		const refused = byCode(p, 'PC5001')[0];
		result(refused && /HeadNode.InstanceType c5.4xlarge -> c5.9xlarge/.test(refused.message) &&
			refused.severity === 1 && refused.range.start.line === 7, 'base-review-published',
			JSON.stringify(p.diagnostics.map((x) => `${x.code}@${pos(x)}`)));
		await change(srv, doc.uri, 2, committed);
		p = await published(srv, doc.uri, 2);
		result(!p.diagnostics.some((x) => /^PC5/.test(x.code)), 'base-review-clean-when-unchanged',
			JSON.stringify(p.diagnostics.map((x) => x.code)));
		fs.writeFileSync(path.join(repo, '.trainforge.yaml'), 'base: no-such-revision\n');
		await change(srv, doc.uri, 3, doc.text);
		p = await published(srv, doc.uri, 3);
		await sleep(200);
		result(!byCode(p, 'PC5001').length && srv.logs.some((m) => /--base no-such-revision/.test(m)),
			'base-bad-revision-logged', srv.logs.join(' | '));
		await srv.conn.sendRequest(rpc.ShutdownRequest.type);
		await srv.conn.sendNotification(rpc.ExitNotification.type);
		await srv.exited;
		srv.conn.dispose();
	} finally {
		fs.rmSync(repo, { recursive: true, force: true });
	}
}

// Disabling a rule for a line or a file, and source.fixAll.trainforge:
// each applied as the client applies a WorkspaceEdit, then linted again.
async function disableSession() {
	const srv = start();
	const init = await initialize(srv, ['utf-16']);
	result(((init.capabilities.codeActionProvider || {}).codeActionKinds || []).includes('source.fixAll.trainforge'),
		'fix-all-capability', JSON.stringify(init.capabilities.codeActionProvider));
	await srv.conn.sendNotification(rpc.InitializedNotification.type, {});
	const cluster = file('examples/broken/cluster.yaml');
	await open(srv, cluster);
	let p = await published(srv, cluster.uri, 1);
	const minmax = byCode(p, 'PC2201')[0];
	let actions = await codeActions(srv, cluster.uri, minmax.range, [minmax]);
	const line = actions.find((a) => a.title === 'Disable PC2201 for this line');
	const edit = line ? editOf(line, cluster.uri) : [];
	result(edit.length === 1 && /# trainforge disable=PC2201 # reason$/.test(edit[0].newText),
		'disable-line-action', JSON.stringify(actions.map((a) => a.title)));
	let text = edit.length ? applyEdit(cluster.text, edit[0]) : cluster.text;
	await change(srv, cluster.uri, 2, text);
	p = await published(srv, cluster.uri, 2);
	result(!byCode(p, 'PC2201').length && !byCode(p, 'LN0001').length && byCode(p, 'PC6001').length === 1,
		'disable-line-applied', JSON.stringify(p.diagnostics.map((d) => d.code)));
	const idle = byCode(p, 'PC6001')[0];
	actions = await codeActions(srv, cluster.uri, idle.range, [idle]);
	const whole = actions.find((a) => a.title === 'Disable PC6001 for this file');
	const fe = whole ? editOf(whole, cluster.uri) : [];
	result(fe.length === 1 && fe[0].range.start.line === 0 && /^# trainforge disable-file=PC6001 # reason\n$/.test(fe[0].newText),
		'disable-file-action', JSON.stringify(fe));
	text = fe.length ? applyEdit(text, fe[0]) : text;
	await change(srv, cluster.uri, 3, text);
	p = await published(srv, cluster.uri, 3);
	result(!byCode(p, 'PC6001').length && !byCode(p, 'LN0001').length, 'disable-file-applied',
		JSON.stringify(p.diagnostics.map((d) => d.code)));
	// fix-all, as an editor asks for it on save: the safe fixes only
	const all = await srv.conn.sendRequest(rpc.CodeActionRequest.type, { textDocument: { uri: cluster.uri },
		range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
		context: { diagnostics: [], only: ['source.fixAll'] } });
	const fix = all.length === 1 && all[0].kind === 'source.fixAll.trainforge' ? editOf(all[0], cluster.uri) : [];
	result(fix.length === 1, 'fix-all-action', JSON.stringify(all.map((a) => a.kind)));
	if (fix.length) {
		await change(srv, cluster.uri, 4, applyEdit(text, fix[0]));
		p = await published(srv, cluster.uri, 4);
		// the look-alike and the case-only did-you-mean (spot: SPOT) are
		// safe; the unknown key's did-you-mean is not
		result(!byCode(p, 'PC1004').length && !byCode(p, 'PC0005').length && byCode(p, 'PC0002').length === 1,
			'fix-all-applied-safe-only',
			JSON.stringify(p.diagnostics.map((d) => d.code)));
	}
	await srv.conn.sendRequest(rpc.ShutdownRequest.type);
	await srv.conn.sendNotification(rpc.ExitNotification.type);
	await srv.exited;
	srv.conn.dispose();
}

// In a git repository: a batch script alone pairs with the only cluster
// config git tracks (LN3003); a broken .trainforge.yaml is a diagnostic
// on that file and a window/showMessage, said once, while the other
// files get the defaults' diagnostics.
async function repositorySession() {
	const { execFileSync } = require('child_process');
	const os = require('os');
	const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-lsp-repo-'));
	const git = (...args) => execFileSync('git', ['-C', repo, ...args], { stdio: 'pipe' });
	try {
		git('init', '-q');
		fs.mkdirSync(path.join(repo, 'clusters'));
		fs.copyFileSync(path.join(root, 'examples/clusters/trn2-48xlarge.yaml'), path.join(repo, 'clusters/prod.yaml'));
		git('add', '.');
		const srv = start();
		const shown = [];
		srv.conn.onNotification(rpc.ShowMessageNotification.type, (m) => shown.push(m));
		await initialize(srv, ['utf-16']);
		await srv.conn.sendNotification(rpc.InitializedNotification.type, {});
		const job = { uri: pathToFileURL(path.join(repo, 'jobs/train.sbatch')).href,
			text: '#!/bin/bash\n#SBATCH --partition=nope\n#SBATCH --nodes=2\n#SBATCH --exclusive\nsrun hostname\n' };
		await open(srv, job, 1, 'sh');
		let p = await published(srv, job.uri, 1);
		const paired = byCode(p, 'LN3003')[0];
		result(paired && /clusters\/prod\.yaml, the only cluster config git tracks/.test(paired.message) &&
			byCode(p, 'SB3001').length === 1 && !byCode(p, 'LN3002').length, 'pair-tracked',
			JSON.stringify(p.diagnostics.map((d) => `${d.code}: ${d.message}`)));
		fs.writeFileSync(path.join(repo, '.trainforge.yaml'), 'select: [ALL]\nignroe: [PC6001]\n');
		const settings = { uri: pathToFileURL(path.join(repo, '.trainforge.yaml')).href,
			text: fs.readFileSync(path.join(repo, '.trainforge.yaml'), 'utf8') };
		await open(srv, settings);
		p = await published(srv, settings.uri, 1);
		const bad = byCode(p, 'LN3001')[0];
		result(bad && bad.range.start.line === 1 && /unknown key 'ignroe'/.test(bad.message), 'settings-diagnostic',
			JSON.stringify(p.diagnostics));
		const cluster = file('examples/broken/cluster.yaml');
		const inRepo = { uri: pathToFileURL(path.join(repo, 'clusters/broken.yaml')).href, text: cluster.text };
		await open(srv, inRepo);
		p = await published(srv, inRepo.uri, 1);
		result(byCode(p, 'PC2201').length === 1 && byCode(p, 'PC6001').length === 1, 'settings-broken-defaults-apply',
			JSON.stringify(p.diagnostics.map((d) => d.code)));
		await change(srv, inRepo.uri, 2, cluster.text + '# edit\n');
		await published(srv, inRepo.uri, 2);
		await sleep(200);
		result(shown.length === 1 && shown[0].type === 1 && /ignroe/.test(shown[0].message), 'settings-show-message-once',
			JSON.stringify(shown));
		await srv.conn.sendRequest(rpc.ShutdownRequest.type);
		await srv.conn.sendNotification(rpc.ExitNotification.type);
		await srv.exited;
		srv.conn.dispose();
	} finally {
		fs.rmSync(repo, { recursive: true, force: true });
	}
}

async function main() {
	for (const session of [utf16Session, utf8Session, codeActionSession, shellcheckSession, baseSession,
		disableSession, repositorySession]) {
		try {
			await session();
		} catch (e) {
			result(false, session.name, e.message);
		}
	}
	process.exit(failed ? 1 : 0);
}

main();
