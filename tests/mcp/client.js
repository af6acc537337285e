// Drives `trainforge mcp` with the official TypeScript SDK's client and
// its stdio transport (@modelcontextprotocol/sdk), whose schemas judge
// every message and which checks each tool's structured result against
// the tool's outputSchema: initialize, the lists, every tool with good
// and bad input, resources, prompts, roots, the time bound and
// cancellation. Results are compared with what the CLI prints for the
// same files (the reference scenario: examples/broken through lint and
// fix). Prints RESULT lines; exits 1 on a failure.
'use strict';
const assert = require('assert');
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const types = require('@modelcontextprotocol/sdk/types.js');
const Ajv = require('ajv');

const root = path.resolve(__dirname, '../..');
const TF = process.env.TF || path.join(root, 'build/rel/trainforge');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tf-mcp-'));
const { result, check, failures } = require('./results.js')('mcp');

function cli(args, cwd = root) {
	const r = spawnSync(TF, args, { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
	return { out: r.stdout, err: r.stderr, code: r.status };
}
const cliJson = (args, cwd) => JSON.parse(cli(args, cwd).out);

async function connect({ cwd = root, args = [], roots = null } = {}) {
	// The SDK passes a server only HOME, PATH and a few more unless told:
	// the CLI runs beside it with the tests' pinned clock and price store.
	const transport = new StdioClientTransport({ command: TF, args: ['mcp', ...args], cwd, stderr: 'pipe',
		env: { ...process.env } });
	const srv = { stderr: '' };
	transport.stderr.on('data', (d) => { srv.stderr += d; });
	const client = new Client({ name: 'trainforge-tests', version: '1.0.0' },
		{ capabilities: roots ? { roots: { listChanged: true } } : {} });
	if (roots)
		client.setRequestHandler(types.ListRootsRequestSchema, async () => ({
			roots: roots.list.map((p) => ({ uri: pathToFileURL(p).href, name: path.basename(p) })),
		}));
	await client.connect(transport);
	srv.client = client;
	return srv;
}

const call = (srv, name, args, opts) => srv.client.callTool({ name, arguments: args }, undefined, opts);

function textOf(r) {
	return r.content.map((c) => c.text).join('\n');
}

async function expectToolError(srv, name, args, pattern) {
	const r = await call(srv, name, args);
	assert.strictEqual(r.isError, true, `not a tool error: ${textOf(r).slice(0, 300)}`);
	assert.match(textOf(r), pattern);
	assert.strictEqual(r.structuredContent, undefined);
}

async function expectProtocolError(promise, code) {
	await assert.rejects(promise, (e) => {
		assert.strictEqual(e.code, code, `code ${e.code}: ${e.message}`);
		return true;
	});
}

const broken = ['examples/broken/cluster.yaml', 'examples/broken/train.sbatch'];
const files = (paths) => paths.map((p) => ({ path: p }));
const counts = (diags) => ['error', 'warning', 'info'].map((s) => diags.filter((d) => d.severity === s).length);

function copyBroken(dir) {
	fs.mkdirSync(path.join(dir, 'examples/broken'), { recursive: true });
	for (const f of broken)
		fs.copyFileSync(path.join(root, f), path.join(dir, f));
}

async function listing(srv) {
	await check('instructions-name-the-working-directory', async () => {
		assert.match(srv.client.getInstructions(), /lint/);
		assert.ok(srv.client.getInstructions().includes(root), 'no working directory in the instructions');
		assert.strictEqual(srv.client.getServerVersion().name, 'trainforge');
	});
	await check('capabilities', async () => {
		const caps = srv.client.getServerCapabilities();
		assert.ok(caps.tools && caps.resources && caps.prompts);
	});
	await check('tools-list', async () => {
		const { tools } = await srv.client.listTools();
		assert.deepStrictEqual(tools.map((t) => t.name).sort(),
			['diff', 'explain', 'fix', 'gen', 'gen_write', 'instances', 'lint', 'plan']);
		const ajv = new Ajv({ strict: false, allErrors: true });
		for (const t of tools) {
			assert.strictEqual(t.inputSchema.type, 'object', t.name);
			assert.strictEqual(t.outputSchema.type, 'object', t.name);
			assert.ok(t.title && t.description, t.name);
			ajv.compile(t.inputSchema);
			ajv.compile(t.outputSchema);
			assert.ok(!JSON.stringify(t.inputSchema).includes('$ref'), `${t.name}: a $ref left in`);
			assert.strictEqual(t.annotations.readOnlyHint, t.name !== 'gen_write', t.name);
			assert.strictEqual(t.annotations.openWorldHint, false, t.name);
		}
	});
}

// The reference scenario: examples/broken's config and batch script.
async function scenario(srv) {
	const want = cliJson(['lint', '--format', 'json', ...broken]);
	let byPath;
	await check('scenario-lint-as-the-cli', async () => {
		const r = await call(srv, 'lint', { files: files(broken) });
		assert.ok(!r.isError, textOf(r));
		byPath = r.structuredContent;
		assert.deepStrictEqual(byPath.diagnostics, want.diagnostics);
		assert.deepStrictEqual(byPath.properties, want.properties);
		const [e, w, i] = counts(want.diagnostics);
		assert.deepStrictEqual(byPath.summary, { errors: e, warnings: w, info: i, files: 2 });
		for (const rule of ['PC1004', 'PC2101', 'SB2002', 'SB2104', 'SB3001'])
			assert.ok(byPath.diagnostics.some((d) => d.rule === rule), `no ${rule}`);
		assert.match(textOf(r), /examples\/broken\/cluster.yaml:\d+:\d+: error: .*\[PC2101\]/);
	});
	await check('scenario-lint-by-content', async () => {
		const docs = broken.map((p) => ({ path: p, content: fs.readFileSync(path.join(root, p), 'utf8') }));
		const r = await call(srv, 'lint', { files: docs });
		assert.deepStrictEqual(r.structuredContent.diagnostics, want.diagnostics);
	});
	for (const unsafe of [false, true]) {
		const name = unsafe ? 'scenario-fix-unsafe-as-the-cli' : 'scenario-fix-as-the-cli';
		await check(name, async () => {
			const copy = fs.mkdtempSync(path.join(scratch, 'fix-'));
			copyBroken(copy);
			const flags = unsafe ? ['--unsafe-fixes'] : [];
			const diff = cli(['lint', '--diff', ...flags, ...broken]);
			cli(['lint', '--fix', ...flags, ...broken], copy);
			const left = cliJson(['lint', '--format', 'json', ...broken], copy);
			const r = await call(srv, 'fix', { files: files(broken), unsafe });
			assert.ok(!r.isError, textOf(r));
			const s = r.structuredContent;
			assert.strictEqual(s.converged, true);
			assert.strictEqual(s.diff, diff.out);
			assert.strictEqual(s.files.length, 2);
			for (const f of s.files)
				assert.strictEqual(f.content, fs.readFileSync(path.join(copy, f.path), 'utf8'), f.path);
			assert.deepStrictEqual(s.remaining.diagnostics, left.diagnostics);
			assert.ok(s.applied.length >= 2 && s.applied.every((a) => unsafe || a.applicability === 'safe'));
			assert.ok(s.applied.some((a) => a.rule === 'SB2104' && a.content === 'NEURON_COMPILE_CACHE_URL'));
			assert.strictEqual(s.unsafeFixesAvailable > 0, !unsafe);
			assert.ok(textOf(r).includes(diff.out));
		});
	}
	await check('fix-writes-nothing', async () => {
		assert.strictEqual(spawnSync('git', ['status', '--porcelain', 'examples/broken'], { cwd: root, encoding: 'utf8' }).stdout, '');
	});
}

async function tools(srv) {
	const spec = 'examples/jobs/moe-176b-trn2.yaml';
	await check('gen-as-the-cli', async () => {
		const out = path.join(scratch, 'gen');
		cli(['gen', spec, '-o', out]);
		const r = await call(srv, 'gen', { spec: { path: spec }, directory: 'out' });
		const s = r.structuredContent;
		assert.strictEqual(s.ok, true, textOf(r));
		assert.strictEqual(s.name, 'moe-176b');
		assert.deepStrictEqual(s.files.map((f) => f.name).sort(), fs.readdirSync(out).sort());
		for (const f of s.files) {
			assert.strictEqual(f.content, fs.readFileSync(path.join(out, f.name), 'utf8'), f.name);
			assert.strictEqual(f.path, `out/${f.name}`);
		}
		assert.deepStrictEqual(s.plan, cliJson(['plan', '--format', 'json', spec]));
		assert.ok(s.nextSteps.some((x) => x.includes('pcluster create-cluster --cluster-name moe-176b')));
		assert.ok(!fs.existsSync(path.join(root, 'out')), 'gen wrote out/');
		assert.match(textOf(r), /```yaml\n# ParallelCluster 3 config for job moe-176b/);
	});
	await check('gen-spec-with-errors', async () => {
		const r = await call(srv, 'gen', { spec: { path: 'job.yaml', content: 'trainforge: 1\nname: x\nnodes: 0\n' } });
		assert.ok(!r.isError, textOf(r));
		const s = r.structuredContent;
		assert.strictEqual(s.ok, false);
		assert.deepStrictEqual(s.files, []);
		assert.ok(s.findings.diagnostics.length > 0 && s.findings.diagnostics.every((d) => d.path === 'job.yaml'));
		assert.ok(s.findings.diagnostics.some((d) => /^JS/.test(d.rule)));
	});
	await check('plan-as-the-cli', async () => {
		const r = await call(srv, 'plan', { spec: { path: spec }, compare: ['p5.48xlarge'] });
		assert.strictEqual(r.structuredContent.kind, 'jobspec');
		assert.deepStrictEqual(r.structuredContent.plan,
			cliJson(['plan', '--format', 'json', '--compare', 'p5.48xlarge', spec]));
		assert.strictEqual(textOf(r), cli(['plan', '--compare', 'p5.48xlarge', spec]).out);
	});
	await check('plan-spec-with-errors', async () => {
		const r = await call(srv, 'plan', { spec: { path: 'job.yaml', content: 'trainforge: 1\nname: x\nnodes: 0\n' } });
		assert.ok(!r.isError, textOf(r));
		const s = r.structuredContent;
		assert.strictEqual(s.ok, false);
		assert.strictEqual(s.plan, undefined);
		assert.ok(s.findings.diagnostics.some((d) => /^JS/.test(d.rule) && d.path === 'job.yaml'));
	});
	await check('plan-tco-as-the-cli', async () => {
		const mixed = 'examples/jobs/moe-176b-trn2-mixed.yaml', tco = 'examples/tco/owned-h100-vs-trn2.yaml';
		const r = await call(srv, 'plan', { spec: { path: mixed }, tco: { path: tco } });
		assert.deepStrictEqual(r.structuredContent.plan, cliJson(['plan', '--format', 'json', '--tco', tco, mixed]));
	});
	await check('plan-cluster-config-as-the-cli', async () => {
		const config = 'examples/clusters/trn2-48xlarge.yaml';
		const r = await call(srv, 'plan', { spec: { path: config } });
		assert.strictEqual(r.structuredContent.kind, 'pcluster');
		assert.deepStrictEqual(r.structuredContent.plan, cliJson(['plan', '--format', 'json', config]));
	});
	await check('explain-as-the-cli', async () => {
		for (const rule of ['PC2101', 'efa-without-placement-group']) {
			const r = await call(srv, 'explain', { rule });
			const s = r.structuredContent;
			assert.strictEqual(s.id, 'PC2101');
			assert.strictEqual(s.page, cli(['explain', '--format', 'markdown', 'PC2101']).out);
			assert.strictEqual(s.examples.bad, cli(['explain', '--example', 'bad', 'PC2101']).out);
			assert.strictEqual(s.examples.good, cli(['explain', '--example', 'good', 'PC2101']).out);
		}
	});
	await check('diff-as-the-cli', async () => {
		const nw = 'tests/cases/PC5001/bad-head-instance-type.yaml', old = `${nw}.base`;
		const want = cliJson(['diff', '--format', 'json', old, nw]).diagnostics;
		assert.ok(want.length > 0);
		let r = await call(srv, 'diff', { old: { path: old }, new: { path: nw } });
		assert.deepStrictEqual(r.structuredContent.diagnostics, want);
		r = await call(srv, 'diff', { old: { path: old, content: fs.readFileSync(path.join(root, old), 'utf8') },
			new: { path: nw } });
		assert.deepStrictEqual(r.structuredContent.diagnostics, want);
	});
	await check('instances-as-the-cli', async () => {
		const all = cliJson(['instances', '--format', 'json']).instances;
		let r = await call(srv, 'instances', { family: 'trn2' });
		assert.deepStrictEqual(r.structuredContent.instances, cliJson(['instances', '--format', 'json', '--family', 'trn2']).instances);
		r = await call(srv, 'instances', { accelerator: 'nvidia-gpu', efa: true });
		assert.deepStrictEqual(r.structuredContent.instances,
			all.filter((i) => i.accelerators.kind === 'nvidia-gpu' && i.efa.supported === 'yes'));
		r = await call(srv, 'instances', { types: ['trn3-48xlarge', 'p5.48xlarge'] });
		assert.deepStrictEqual(r.structuredContent.instances.map((i) => i.name), ['p5.48xlarge']);
		assert.deepStrictEqual(r.structuredContent.unknown, [{ name: 'trn3-48xlarge', suggestion: 'trn3.48xlarge' }]);
	});
}

async function badInput(srv) {
	const spec = { path: 'examples/jobs/moe-176b-trn2.yaml' };
	const cases = [
		['lint', {}, /files: missing required key 'files'|missing required key 'files'/],
		['lint', { files: [{ path: '/etc/passwd' }] }, /outside .*working directory/],
		['lint', { files: [{ pathz: 'x.yaml' }] }, /unknown key 'pathz' \(did you mean 'path'\?\)/],
		['lint', { files: [{ path: '-' }] }, /- is no file here/],
		['lint', { files: [{ path: 'examples/broken/cluster.yaml' }], kind: 'docker' }, /kind/],
		['lint', { files: files(broken), select: ['NOPE12'] }, /unknown rule selector 'NOPE12'/],
		['lint', { files: files(broken), target: { parallelcluster: '2.0' } }, /target/],
		['fix', { files: [{ path: 'examples/broken/missing.yaml' }] }, /No such file or directory/],
		['gen', { spec: { path: 'nope.yaml' } }, /nope.yaml: No such file or directory/],
		['gen_write', { spec }, /missing required key 'directory'/],
		['gen_write', { spec, directory: '/tmp' }, /directory \/tmp is outside/],
		['plan', { spec, compare: ['p5-48xlarge'] }, /unknown instance type 'p5-48xlarge' in --compare \(did you mean p5.48xlarge\?\)/],
		['plan', { spec, same: 'nodes', deadline: 12 }, /give one/],
		['plan', { spec: { path: 'examples/clusters/trn2-48xlarge.yaml' }, hours: 10 }, /plan a job spec, not a cluster config/],
		['plan', { spec, hours: -1 }, /hours/],
		['explain', { rule: 'ZZ9999' }, /unknown rule 'ZZ9999'/],
		['explain', {}, /missing required key 'rule'/],
		['diff', { old: { path: 'tests/cases/PC5001/bad-head-instance-type.yaml' } }, /missing required key 'new'/],
		['instances', { family: 'zz' }, /no family 'zz'/],
		['instances', { accelerator: 'gpu' }, /accelerator/],
	];
	for (const [i, [tool, args, pattern]] of cases.entries())
		await check(`bad-input-${tool}-${i}`, () => expectToolError(srv, tool, args, pattern));
	await check('unknown-tool-is-a-protocol-error', () =>
		expectProtocolError(call(srv, 'shell', {}), types.ErrorCode.InvalidParams));
}

async function resources(srv) {
	const rules = cli(['rules']).out.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0]);
	await check('resources-list', async () => {
		const { resources } = await srv.client.listResources();
		assert.strictEqual(resources.length, rules.length + 5);
		for (const id of rules)
			assert.ok(resources.some((r) => r.uri === `trainforge://rules/${id}` && r.mimeType === 'text/markdown'), id);
		const { resourceTemplates } = await srv.client.listResourceTemplates();
		assert.strictEqual(resourceTemplates[0].uriTemplate, 'trainforge://rules/{rule}');
	});
	const read = async (uri) => (await srv.client.readResource({ uri })).contents[0];
	await check('resource-schemas-as-the-cli', async () => {
		for (const name of ['jobspec', 'parallelcluster']) {
			const c = await read(`trainforge://schema/${name}`);
			assert.strictEqual(c.text, cli(['schema', name]).out, name);
			JSON.parse(c.text);
		}
		const settings = await read('trainforge://schema/settings');
		assert.strictEqual(settings.text, fs.readFileSync(path.join(root, 'schemas/trainforge-config.schema.json'), 'utf8'));
		JSON.parse((await read('trainforge://schema/tco')).text);
	});
	await check('resource-instances-as-the-cli', async () => {
		assert.deepStrictEqual(JSON.parse((await read('trainforge://instances')).text), cliJson(['instances', '--format', 'json']));
	});
	await check('resource-rule-pages', async () => {
		for (const id of [rules[0], 'SB2002', rules[rules.length - 1]])
			assert.strictEqual((await read(`trainforge://rules/${id}`)).text, cli(['explain', '--format', 'markdown', id]).out, id);
		assert.strictEqual((await read('trainforge://rules/launcher-without-srun')).text,
			cli(['explain', '--format', 'markdown', 'SB2002']).out);
	});
	await check('resource-unknown', () => expectProtocolError(read('trainforge://rules/XX0000'), -32002));
}

async function prompts(srv) {
	await check('prompts', async () => {
		const { prompts: list } = await srv.client.listPrompts();
		assert.deepStrictEqual(list.map((p) => p.name), ['write-job-spec', 'review-cluster']);
		const job = '176B MoE on 64 trn2.48xlarge for 12 days';
		const w = await srv.client.getPrompt({ name: 'write-job-spec', arguments: { job } });
		assert.ok(w.messages[0].content.text.includes(job));
		assert.strictEqual(w.messages[1].content.resource.uri, 'trainforge://schema/jobspec');
		JSON.parse(w.messages[1].content.resource.text);
		const r = await srv.client.getPrompt({ name: 'review-cluster', arguments: { cluster: broken[0], script: broken[1] } });
		assert.ok(r.messages[0].content.text.includes(broken[0]) && r.messages[0].content.text.includes(broken[1]));
	});
	await check('prompt-without-its-argument', () =>
		expectProtocolError(srv.client.getPrompt({ name: 'write-job-spec', arguments: {} }), types.ErrorCode.InvalidParams));
}

// A client with roots: a directory of its own; files elsewhere are refused.
async function roots() {
	const home = fs.mkdtempSync(path.join(scratch, 'root-'));
	const outside = fs.mkdtempSync(path.join(scratch, 'outside-'));
	fs.copyFileSync(path.join(root, 'examples/jobs/moe-176b-trn2.yaml'), path.join(home, 'job.yaml'));
	fs.copyFileSync(path.join(root, 'examples/clusters/trn2-48xlarge.yaml'), path.join(outside, 'cluster.yaml'));
	fs.symlinkSync(outside, path.join(home, 'escape'));
	const rel = path.relative(home, path.join(outside, 'cluster.yaml'));
	fs.writeFileSync(path.join(home, 'train.sbatch'),
		`#!/bin/bash\n# trainforge cluster=${rel}\n#SBATCH --partition=nope\n#SBATCH --nodes=1\nsrun python train.py\n`);
	const list = { list: [home] };
	const srv = await connect({ cwd: scratch, roots: list });
	try {
		await check('roots-instructions', async () => assert.match(srv.client.getInstructions(), /roots the client shares/));
		await check('roots-relative-to-the-first', async () => {
			const r = await call(srv, 'lint', { files: [{ path: 'job.yaml' }] });
			assert.ok(!r.isError, textOf(r));
			assert.strictEqual(r.structuredContent.diagnostics.length, 0, textOf(r));
		});
		await check('roots-refuse-outside', () =>
			expectToolError(srv, 'lint', { files: [{ path: path.join(root, broken[0]) }] }, /outside the roots the client shares/));
		await check('roots-refuse-symlink-out', () =>
			expectToolError(srv, 'lint', { files: [{ path: 'escape/cluster.yaml' }] }, /outside the roots/));
		await check('roots-refuse-content-outside', () =>
			expectToolError(srv, 'lint', { files: [{ path: '/etc/x.yaml', content: 'a: 1\n' }] }, /outside the roots/));
		await check('roots-pairing-stays-inside', async () => {
			const viaCli = cliJson(['lint', '--format', 'json', 'train.sbatch'], home).diagnostics;
			assert.ok(viaCli.some((d) => d.rule === 'SB3001'), 'the CLI should pair with the config outside');
			const r = await call(srv, 'lint', { files: [{ path: 'train.sbatch' }] });
			assert.ok(!r.structuredContent.diagnostics.some((d) => d.rule === 'SB3001'),
				'the config outside the roots was read');
		});
		await check('gen_write-writes-inside', async () => {
			const args = { spec: { path: 'job.yaml' }, directory: 'out' };
			let r = await call(srv, 'gen_write', args);
			assert.strictEqual(r.structuredContent.ok, true, textOf(r));
			const each = (status) => r.structuredContent.files.map(() => status);
			assert.deepStrictEqual(r.structuredContent.written.map((w) => w.status), each('written'));
			for (const f of r.structuredContent.files)
				assert.strictEqual(fs.readFileSync(path.join(home, f.path), 'utf8'), f.content);
			r = await call(srv, 'gen_write', args);
			assert.deepStrictEqual(r.structuredContent.written.map((w) => w.status), each('unchanged'));
			const script = path.join(home, 'out/moe-176b.sbatch');
			fs.appendFileSync(script, '# edited\n');
			r = await call(srv, 'gen_write', args);
			assert.strictEqual(r.structuredContent.ok, false);
			assert.ok(fs.readFileSync(script, 'utf8').endsWith('# edited\n'), 'overwritten without force');
			r = await call(srv, 'gen_write', { ...args, force: true });
			assert.strictEqual(r.structuredContent.ok, true);
			assert.ok(!fs.readFileSync(script, 'utf8').endsWith('# edited\n'));
		});
		await check('roots-list-changed', async () => {
			list.list = [home, root];
			await srv.client.sendRootsListChanged();
			const r = await call(srv, 'lint', { files: [{ path: path.join(root, broken[0]) }], shellcheck: 'off' });
			assert.ok(!r.isError, textOf(r));
		});
	} finally {
		await srv.client.close();
	}
}

// The time bound, and cancellation: the server kills the call and goes on.
async function bounds() {
	const stall = path.join(root, 'tests/cases/_tools/stalling-shellcheck');
	const script = { path: 'stall.sbatch', content: '#!/bin/bash\n#SBATCH --nodes=1\n# STALL\nsrun true\n' };
	let srv = await connect({ args: ['--timeout', '1', '--shellcheck', stall] });
	try {
		await check('timeout-is-a-tool-error', async () => {
			const t0 = Date.now();
			await expectToolError(srv, 'lint', { files: [script], shellcheck: 'required' }, /longer than 1 s/);
			assert.ok(Date.now() - t0 < 8000, `${Date.now() - t0} ms`);
			await srv.client.ping();
			const r = await call(srv, 'lint', { files: files(broken), shellcheck: 'off' });
			assert.ok(!r.isError);
		});
	} finally {
		await srv.client.close();
	}
	srv = await connect({ args: ['--timeout', '60', '--shellcheck', stall] });
	try {
		await check('cancel-kills-the-call', async () => {
			await assert.rejects(call(srv, 'lint', { files: [script], shellcheck: 'required' }, { timeout: 300 }));
			const t0 = Date.now();
			const r = await call(srv, 'lint', { files: files(broken), shellcheck: 'off' });
			assert.ok(!r.isError);
			assert.ok(Date.now() - t0 < 5000, `the next call waited ${Date.now() - t0} ms`);
		});
	} finally {
		await srv.client.close();
	}
}

(async () => {
	const srv = await connect();
	try {
		await listing(srv);
		await scenario(srv);
		await tools(srv);
		await badInput(srv);
		await resources(srv);
		await prompts(srv);
	} finally {
		await srv.client.close();
	}
	await roots();
	await bounds();
	fs.rmSync(scratch, { recursive: true, force: true });
	process.exit(failures() ? 1 : 0);
})().catch((e) => {
	result(false, 'client', e.stack);
	process.exit(1);
});
