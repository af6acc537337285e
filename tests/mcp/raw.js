// `trainforge mcp` on raw lines: each protocol revision the SDK accepts
// negotiated as the specification says, with only what that revision
// defines in the replies (the SDK's own schemas parse each one); batches
// in 2025-03-26 alone; JSON-RPC errors; and hostile input: garbage,
// nesting, oversized messages. After each, the server must still answer.
// Prints RESULT lines; exits 1 on a failure.
'use strict';
const assert = require('assert');
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const types = require('@modelcontextprotocol/sdk/types.js');

const root = path.resolve(__dirname, '../..');
const TF = process.env.TF || path.join(root, 'build/rel/trainforge');
const { result, check, failures } = require('./results.js')('mcp-raw');

// A server and its lines: every line it writes must be one JSON value.
function start(args = [], cwd = root) {
	const proc = spawn(TF, ['mcp', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
	const srv = { proc, lines: [], waiters: [], stderr: '', buf: '', bad: [] };
	proc.stderr.on('data', (d) => { srv.stderr += d; });
	proc.stdout.setEncoding('utf8');
	proc.stdout.on('data', (d) => {
		srv.buf += d;
		let nl;
		while ((nl = srv.buf.indexOf('\n')) >= 0) {
			const line = srv.buf.slice(0, nl);
			srv.buf = srv.buf.slice(nl + 1);
			try {
				srv.lines.push(JSON.parse(line));
			} catch (e) {
				srv.bad.push(line.slice(0, 200));
			}
			for (const w of srv.waiters.splice(0))
				w();
		}
	});
	srv.exited = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
	srv.send = (obj) => srv.proc.stdin.write((typeof obj === 'string' ? obj : JSON.stringify(obj)) + '\n');
	return srv;
}

// The next message that matches pred.
function next(srv, pred, ms = 10000) {
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms; stderr: ${srv.stderr.slice(-500)}`)), ms);
		const look = () => {
			const i = srv.lines.findIndex(pred);
			if (i < 0)
				return srv.waiters.push(look);
			clearTimeout(timer);
			resolve(srv.lines.splice(i, 1)[0]);
		};
		look();
	});
}

let ids = 100;
async function request(srv, method, params) {
	const id = ids++;
	srv.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
	return next(srv, (m) => m.id === id);
}

async function initialize(srv, version) {
	const r = await request(srv, 'initialize', {
		protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' },
	});
	srv.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
	return r;
}

async function alive(srv) {
	const r = await request(srv, 'ping');
	assert.deepStrictEqual(r.result, {}, JSON.stringify(r));
}

const lint = { name: 'lint', arguments: { files: [{ path: 'examples/broken/cluster.yaml' }], shellcheck: 'off' } };

async function revisions() {
	for (const version of types.SUPPORTED_PROTOCOL_VERSIONS) {
		await check(`revision-${version}`, async () => {
			const srv = start();
			const init = await initialize(srv, version);
			assert.strictEqual(init.result.protocolVersion, version);
			types.InitializeResultSchema.parse(init.result);
			const newer = (since) => version >= since && version !== '2024-10-07';
			assert.strictEqual('title' in init.result.serverInfo, newer('2025-06-18'));
			const { result: list } = await request(srv, 'tools/list');
			types.ListToolsResultSchema.parse(list);
			for (const t of list.tools) {
				assert.strictEqual('outputSchema' in t, newer('2025-06-18'), `${t.name} outputSchema`);
				assert.strictEqual('title' in t, newer('2025-06-18'), `${t.name} title`);
				assert.strictEqual('annotations' in t, newer('2025-03-26'), `${t.name} annotations`);
			}
			const { result: res } = await request(srv, 'tools/call', lint);
			types.CallToolResultSchema.parse(res);
			if (newer('2025-06-18')) {
				assert.strictEqual(res.content.length, 1);
				assert.ok(res.structuredContent.diagnostics.length > 0);
			} else {
				assert.strictEqual(res.structuredContent, undefined);
				assert.ok(JSON.parse(res.content[1].text).diagnostics.length > 0);
			}
			const { result: resources } = await request(srv, 'resources/list');
			types.ListResourcesResultSchema.parse(resources);
			assert.strictEqual('title' in resources.resources[0], newer('2025-06-18'));
			srv.proc.stdin.end();
			assert.deepStrictEqual(await srv.exited, { code: 0, signal: null });
			assert.deepStrictEqual(srv.bad, []);
		});
	}
	await check('revision-unknown-gets-the-newest', async () => {
		const srv = start();
		const init = await initialize(srv, '1999-01-01');
		assert.strictEqual(init.result.protocolVersion, types.LATEST_PROTOCOL_VERSION);
		srv.proc.kill();
	});
}

async function batches() {
	await check('batch-in-2025-03-26', async () => {
		const srv = start();
		await initialize(srv, '2025-03-26');
		srv.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'notifications/progress' },
			{ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: lint }]);
		const answer = await next(srv, (m) => Array.isArray(m));
		assert.deepStrictEqual(answer.map((m) => m.id), [1, 2, 3]);
		assert.ok(answer[1].result.tools.length === 8);
		types.CallToolResultSchema.parse(answer[2].result);
		assert.ok(JSON.parse(answer[2].result.content[1].text).diagnostics.length > 0);
		srv.send([{ jsonrpc: '2.0', method: 'notifications/progress' }]);
		await alive(srv); /* a batch of notifications has no answer */
		assert.ok(!srv.lines.some((m) => Array.isArray(m)));
		srv.proc.kill();
	});
	await check('batch-refused-after-2025-03-26', async () => {
		const srv = start();
		await initialize(srv, '2025-11-25');
		srv.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
		const e = await next(srv, (m) => m.error && !('id' in m));
		assert.strictEqual(e.error.code, -32600);
		await alive(srv);
		srv.proc.kill();
	});
}

async function errors() {
	const srv = start();
	await check('before-initialize', async () => {
		const r = await request(srv, 'tools/list');
		assert.strictEqual(r.error.code, -32600);
		assert.match(r.error.message, /not initialized/);
		await alive(srv); /* ping is allowed before */
	});
	await initialize(srv, types.LATEST_PROTOCOL_VERSION);
	const cases = [
		['not-json', 'this is not json', -32700],
		['no-jsonrpc', { id: 7, method: 'ping' }, -32600],
		['unknown-method', { jsonrpc: '2.0', id: 8, method: 'tools/run' }, -32601],
		['arguments-not-an-object', { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'lint', arguments: 'x' } }, -32602],
		['params-not-an-object', { jsonrpc: '2.0', id: 10, method: 'tools/call', params: 3 }, -32602],
		['unknown-resource', { jsonrpc: '2.0', id: 11, method: 'resources/read', params: { uri: 'file:///etc/passwd' } }, -32002],
		['cursor', { jsonrpc: '2.0', id: 12, method: 'tools/list', params: { cursor: 'x' } }, -32602],
		['initialize-twice', { jsonrpc: '2.0', id: 13, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }, -32600],
	];
	for (const [name, msg, code] of cases)
		await check(`error-${name}`, async () => {
			srv.send(msg);
			const want = typeof msg === 'string' || !('id' in msg) || !msg.jsonrpc ? (m) => m.error && m.error.code === code
				: (m) => m.id === msg.id;
			const r = await next(srv, want);
			assert.strictEqual(r.error.code, code, JSON.stringify(r));
			types.JSONRPCErrorResponseSchema.parse(r);
			await alive(srv);
		});
	await check('hostile-lines', async () => {
		const hostile = [
			'\u0000\u0001\u0002garbage',
			Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]).toString('latin1'),
			'['.repeat(200000),
			'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":' + '{"a":'.repeat(50000) + '1' + '}'.repeat(50001),
			'{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}',
			'\r\n\r\n',
			'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lint","arguments":{"files":[{"path":"a\\u0000b"}]}}}',
		];
		for (const line of hostile) {
			srv.send(line);
			await alive(srv);
		}
		const r = await request(srv, 'tools/call', { name: 'lint', arguments: { files: [{ path: 'x.yaml', content: 'a: [' + '['.repeat(100000) }] } });
		types.CallToolResultSchema.parse(r.result);
		assert.ok(!r.result.isError);
		assert.ok(r.result.structuredContent.diagnostics.length > 0, 'no finding on a nesting bomb');
	});
	await check('hostile-content-over-the-size-limit', async () => {
		const r = await request(srv, 'tools/call', {
			name: 'lint', arguments: { files: [{ path: 'big.yaml', content: '#'.repeat(17 << 20) }] },
		});
		assert.deepStrictEqual(r.result.structuredContent.diagnostics.map((d) => d.rule), ['LN1005']);
	});
	await check('hostile-message-over-the-limit', async () => {
		srv.send('{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"' + 'y'.repeat(65 << 20) + '"}}');
		const e = await next(srv, (m) => m.error && m.error.code === -32600 && /too large/.test(m.error.message), 30000);
		assert.ok(!('id' in e), 'an id on an error to a message whose id is unknown');
		await alive(srv);
	});
	await check('every-line-is-json', async () => assert.deepStrictEqual(srv.bad, []));
	await check('eof-ends-the-server', async () => {
		srv.proc.stdin.end();
		assert.deepStrictEqual(await srv.exited, { code: 0, signal: null });
	});
}

// The inputs of tests/hostile through the lint tool, by path and (where
// JSON can carry them) as content: each ends fast with its finding.
async function hostileFiles() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-mcp-hostile-'));
	let laughs = 'a0: &a0 [' + Array(10).fill('"lol"').join(',') + ']\n';
	for (let i = 1; i <= 9; i++)
		laughs += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]\n`;
	laughs += 'HeadNode: *a9\nScheduling: *a9\n';
	const cases = [
		['alias-bomb', 'laughs.yaml', laughs, 'LN1007'],
		['deep-flow', 'deep-flow.yaml', 'HeadNode: ' + '['.repeat(10000) + ']'.repeat(10000) + '\n', 'LN1006'],
		['deep-block', 'deep-block.yaml', 'HeadNode:\n  ' + '- '.repeat(10000) + 'x\n', 'LN1006'],
		['long-line', 'long-line.yaml', 'Image: {Os: alinux2023}\nHeadNode: {InstanceType: "' + 'x'.repeat(1 << 20) +
			'", Networking: {SubnetId: subnet-12345678}}\nScheduling: {Scheduler: slurm, SlurmQueues: [{Name: q, ' +
			'Networking: {SubnetIds: [subnet-12345678]}, ComputeResources: [{Name: c, InstanceType: c5.xlarge}]}]}\n', 'PC1002'],
		['nul-bytes', 'nul.yaml', 'HeadNode:\n  InstanceType: c5\u0000.xlarge\n', 'LN1003'],
		['empty', 'empty.yaml', '', 'LN1004'],
		['alias-cycle', 'cycle.yaml', 'HeadNode: &a [*a]\nScheduling: 1\n', 'LN1001'],
		['script-deep-nesting', 'deep.sbatch', '#!/bin/bash\n#SBATCH --nodes=2\necho ' + '$('.repeat(100000) + 'x' +
			')'.repeat(100000) + '\n', 'SB0005'],
		['script-unterminated-heredoc', 'heredoc.sbatch', '#!/bin/bash\n#SBATCH --nodes=2\ncat <<EOF\nno end\n', 'SB0006'],
		['template-unclosed-braces', 'open-braces.yaml', '{{'.repeat(500000) + '\n', 'LN1006'],
	];
	for (const [, name, text] of cases)
		fs.writeFileSync(path.join(dir, name), text);
	fs.writeFileSync(path.join(dir, 'latin1.yaml'), Buffer.from('HeadNode:\n  InstanceType: caf\xe9\n', 'latin1'));
	cases.push(['invalid-utf8', 'latin1.yaml', null, 'LN1002']);
	fs.closeSync(fs.openSync(path.join(dir, 'huge.yaml'), 'w'));
	fs.truncateSync(path.join(dir, 'huge.yaml'), 100 << 20);
	cases.push(['huge-file', 'huge.yaml', null, 'LN1005']);
	fs.writeFileSync(path.join(dir, 'py.sbatch'), '#!/bin/bash\n#SBATCH --nodes=1\nsrun python deep.py --x 1\n');
	fs.writeFileSync(path.join(dir, 'deep.py'), 'import argparse\np = argparse.ArgumentParser()\nx = ' +
		'('.repeat(100000) + ')'.repeat(100000) + '\n');
	cases.push(['program-deep-nesting', 'py.sbatch', null, 'SB2305']);
	const srv = start([], dir);
	await initialize(srv, types.LATEST_PROTOCOL_VERSION);
	const lint = async (file) => {
		const id = ids++;
		srv.send({ jsonrpc: '2.0', id, method: 'tools/call',
			params: { name: 'lint', arguments: { files: [file], shellcheck: 'off' } } });
		const r = await next(srv, (m) => m.id === id, 30000);
		types.CallToolResultSchema.parse(r.result);
		assert.ok(!r.result.isError, r.result.content[0].text.slice(0, 300));
		return r.result.structuredContent;
	};
	for (const [kase, name, text, rule] of cases) {
		await check(`hostile-${kase}`, async () => {
			const rules = (await lint({ path: name })).diagnostics.map((d) => d.rule);
			assert.ok(rules.includes(rule), `no ${rule} in ${rules}`);
		});
		if (text !== null)
			await check(`hostile-${kase}-as-content`, async () => {
				const rules = (await lint({ path: `content-${name}`, content: text })).diagnostics.map((d) => d.rule);
				assert.ok(rules.includes(rule), `no ${rule} in ${rules}`);
			});
	}
	await check('hostile-fifo', async () => {
		spawnSync('mkfifo', [path.join(dir, 'fifo.yaml')]);
		const s = await lint({ path: 'fifo.yaml' });
		assert.ok(s.messages.some((m) => /fifo.yaml: not a regular file/.test(m)), JSON.stringify(s.messages));
	});
	srv.proc.stdin.end();
	await check('hostile-server-ends-clean', async () => assert.deepStrictEqual(await srv.exited, { code: 0, signal: null }));
	fs.rmSync(dir, { recursive: true, force: true });
}

(async () => {
	await revisions();
	await hostileFiles();
	await batches();
	await errors();
	process.exit(failures() ? 1 : 0);
})().catch((e) => {
	result(false, 'raw', e.stack);
	process.exit(1);
});
