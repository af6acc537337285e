// `trainforge lsp` on hostile and odd input, written as raw bytes: garbage
// headers, bad JSON, wrong shapes, an oversized frame, JSON that libyaml
// needs rewritten (tabs, escaped surrogate pairs, raw C1 controls), bare
// LF headers, and end of input mid-frame. The server must answer or skip,
// never crash or hang. Prints RESULT lines; exits 1 on a failure.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');

const root = path.resolve(__dirname, '../..');
const TF = process.env.TF || path.join(root, 'build/rel/trainforge');
let failed = 0;

function result(ok, name, detail) {
	console.log(`RESULT ${ok ? 'pass' : 'fail'} lsp-malformed/${name}${ok || !detail ? '' : ': ' + detail}`);
	if (!ok)
		failed++;
}

const frameOf = (body, eol = '\r\n') => {
	const b = Buffer.from(body, 'utf8');
	return Buffer.concat([Buffer.from(`Content-Length: ${b.length}${eol}${eol}`), b]);
};
const json = (obj) => frameOf(JSON.stringify(obj));

// A raw server: write bytes, read framed messages.
function start() {
	const proc = spawn(TF, ['lsp'], { stdio: ['pipe', 'pipe', 'pipe'] });
	const srv = { proc, messages: [], waiters: new Set(), stderr: '', buf: Buffer.alloc(0) };
	proc.stdin.on('error', () => {});
	proc.stderr.on('data', (d) => { srv.stderr += d; });
	srv.exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
	proc.stdout.on('data', (d) => {
		srv.buf = Buffer.concat([srv.buf, d]);
		for (;;) {
			const end = srv.buf.indexOf('\r\n\r\n');
			if (end < 0)
				break;
			const m = /Content-Length: (\d+)/.exec(srv.buf.slice(0, end).toString('ascii'));
			const len = m ? Number(m[1]) : 0;
			if (srv.buf.length < end + 4 + len)
				break;
			srv.messages.push(JSON.parse(srv.buf.slice(end + 4, end + 4 + len).toString('utf8')));
			srv.buf = srv.buf.slice(end + 4 + len);
		}
		for (const w of [...srv.waiters])
			w();
	});
	return srv;
}

function next(srv, pred, what, ms = 10000) {
	return new Promise((resolve, reject) => {
		let timer;
		const check = () => {
			const i = srv.messages.findIndex(pred);
			if (i < 0)
				return;
			clearTimeout(timer);
			srv.waiters.delete(check);
			resolve(srv.messages.splice(i, 1)[0]);
		};
		timer = setTimeout(() => {
			srv.waiters.delete(check);
			reject(new Error(`timed out waiting for ${what}; stderr: ${srv.stderr}`));
		}, ms);
		srv.waiters.add(check);
		check();
	});
}

const reply = (srv, id) => next(srv, (m) => m.id === id && !m.method, `the reply to ${JSON.stringify(id)}`);
const nullError = (srv) => next(srv, (m) => m.id === null && m.error, 'an error with id null');
const withTimeout = (promise, ms) => Promise.race([promise,
	new Promise((resolve) => setTimeout(() => resolve({ code: 'timeout' }), ms))]);

async function session() {
	const srv = start();
	const w = (b) => srv.proc.stdin.write(b);

	w(json({ jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: {} }));
	let m = await reply(srv, 1);
	result(m.error && m.error.code === -32002, 'request-before-initialize', JSON.stringify(m));

	w('hello there\r\n\r\n');
	w('Content-Length: abc\r\n\r\n');
	w(frameOf('{"jsonrpc": "2.0", "id": 2, "method": '));
	m = await nullError(srv);
	result(m.error.code === -32700, 'bad-json-parse-error', JSON.stringify(m));
	w(frameOf('[1, 2]'));
	m = await nullError(srv);
	result(m.error.code === -32600, 'not-an-object-invalid-request', JSON.stringify(m));
	w(frameOf('{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}'));
	m = await nullError(srv);
	result(m.error.code === -32600, 'object-id-invalid-request', JSON.stringify(m));
	w(frameOf('"just a string"'));
	m = await nullError(srv);
	result(m.error.code === -32600, 'scalar-invalid-request', JSON.stringify(m));

	// tab-indented JSON, a string id, bare LF header lines
	w(frameOf('{\n\t"jsonrpc": "2.0",\n\t"id": "init",\n\t"method": "initialize",\n\t"params": {\n\t\t"capabilities": {}\n\t}\n}', '\n'));
	m = await reply(srv, 'init');
	result(m.result && m.result.capabilities.positionEncoding === 'utf-16', 'tabs-and-lf-headers', JSON.stringify(m));
	w(json({ jsonrpc: '2.0', method: 'initialized', params: {} }));

	// a frame glued to garbage still gets through
	w(Buffer.concat([Buffer.from('xyzzy'), json({ jsonrpc: '2.0', id: 3, method: 'nope' })]));
	m = await reply(srv, 3);
	result(m.error && m.error.code === -32601, 'frame-after-garbage', JSON.stringify(m));

	// an escaped surrogate pair in the text (as Python's json.dumps writes
	// it); JSON.stringify leaves DEL, C1 characters and U+2028 raw and
	// escapes a lone surrogate: those go in a field the server does not read
	const cluster = fs.readFileSync(path.join(root, 'examples/broken/cluster.yaml'), 'utf8');
	const uri = pathToFileURL(path.join(root, 'examples/broken/odd.yaml')).href;
	const open = JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen',
		params: { note: '\u007f \u0085 \u009f \u2028 \ud800 \u0000',
			textDocument: { uri, languageId: 'yaml', version: 7,
				text: cluster.replace('p5\u2011', 'p5\u{1F600}\u2011') } } })
		.replace(/[\u{10000}-\u{10ffff}]/gu, (c) => [0, 1].map((i) => '\\u' + c.charCodeAt(i).toString(16)).join(''));
	w(frameOf(open));
	m = await next(srv, (x) => x.method === 'textDocument/publishDiagnostics' && x.params.uri === uri, 'diagnostics');
	const hyphen = m.params.diagnostics.find((d) => d.code === 'PC1004');
	result(m.params.version === 7 && m.params.diagnostics.length === 14 && hyphen &&
		hyphen.range.start.line === 29 && hyphen.range.start.character === 24 && hyphen.range.end.character === 37,
		'escaped-surrogates-and-raw-controls', JSON.stringify(hyphen || m.params.diagnostics.map((d) => d.code)));
	// a raw DEL in the text reaches the linter as it is: the CLI's finding
	const del = pathToFileURL(path.join(root, 'examples/broken/del.yaml')).href;
	w(json({ jsonrpc: '2.0', method: 'textDocument/didOpen',
		params: { textDocument: { uri: del, languageId: 'yaml', version: 1, text: '# \u007f\n' + cluster } } }));
	m = await next(srv, (x) => x.method === 'textDocument/publishDiagnostics' && x.params.uri === del, 'diagnostics');
	const ctl = m.params.diagnostics;
	result(ctl.length === 1 && ctl[0].code === 'LN1001' && /control characters/.test(ctl[0].message),
		'raw-del-in-text', JSON.stringify(ctl));

	// a NUL in the text (\u0000 in JSON): the CLI's binary-file finding
	const nul = pathToFileURL(path.join(root, 'examples/broken/nul.yaml')).href;
	w(json({ jsonrpc: '2.0', method: 'textDocument/didOpen',
		params: { textDocument: { uri: nul, languageId: 'yaml', version: 1, text: 'Region: x\u0000\n' + cluster } } }));
	m = await next(srv, (x) => x.method === 'textDocument/publishDiagnostics' && x.params.uri === nul, 'diagnostics');
	const bin = m.params.diagnostics;
	result(bin.length === 1 && bin[0].code === 'LN1003' && /offset 9\b/.test(bin[0].message),
		'nul-in-text', JSON.stringify(bin));

	// a frame over the size limit is skipped whole; the stream goes on
	const big = 64 * 1024 * 1024 + 1;
	w(`Content-Length: ${big}\r\n\r\n`);
	w(Buffer.alloc(big, 0x20));
	m = await nullError(srv);
	result(m.error.code === -32600 && /too large/.test(m.error.message), 'oversized-frame-skipped', JSON.stringify(m));

	w(json({ jsonrpc: '2.0', id: 4, method: 'shutdown' }));
	m = await reply(srv, 4);
	result('result' in m && m.result === null, 'survives-then-shuts-down', JSON.stringify(m));
	w(json({ jsonrpc: '2.0', method: 'exit' }));
	const ex = await withTimeout(srv.exited, 10000);
	result(ex.code === 0, 'exit-code-0', `code ${ex.code} signal ${ex.signal}`);
}

// End of input in the middle of a frame, or a length that never arrives:
// the server stops (exit 1: no shutdown), it does not hang or crash.
async function truncated(name, bytes) {
	const srv = start();
	srv.proc.stdin.end(bytes);
	const ex = await withTimeout(srv.exited, 10000);
	result(ex.code === 1, name, `code ${ex.code} signal ${ex.signal}; stderr: ${srv.stderr}`);
	if (ex.code === 'timeout')
		srv.proc.kill();
}

async function main() {
	try {
		await session();
	} catch (e) {
		result(false, 'session', e.message);
	}
	await truncated('eof-mid-header', 'Content-Len');
	await truncated('eof-mid-body', 'Content-Length: 100\r\n\r\n{"jsonrpc"');
	await truncated('eof-after-huge-length', 'Content-Length: 999999999999\r\n\r\n');
	await truncated('eof-in-long-garbage', Buffer.alloc(100000, 0x41));
	process.exit(failed ? 1 : 0);
}

main();
