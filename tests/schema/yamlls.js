// yaml-language-server, run as a language server over stdio the way an
// editor runs it, validates the examples against the schemas that
// `trainforge schema` printed into SCHEMA_DIR: the clean configs, job
// spec and cost inputs get no error, the broken config gets the schema's
// errors (the `spot` enum, the misspelt VolumeTpye key). It also shows whether our
// custom keywords (x-message, x-since) trouble it: any log line, message
// or diagnostic that names them fails. Prints RESULT lines; TF_DEBUG=1
// prints every diagnostic.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const rpc = require('vscode-languageserver-protocol/node');

const root = path.resolve(__dirname, '../..');
const schemaDir = process.env.SCHEMA_DIR;
const debug = !!process.env.TF_DEBUG;
let failed = 0;

function result(ok, name, detail) {
	console.log(`RESULT ${ok ? 'pass' : 'fail'} yamlls/${name}${ok || !detail ? '' : ': ' + detail}`);
	if (!ok)
		failed++;
}

const schemaUri = (name) => pathToFileURL(path.join(schemaDir, `${name}.schema.json`)).href;
// Each example is opened under a folder of its own kind, as a workspace
// would keep them, so that the schema association is by glob.
const docs = [
	{ name: 'clean-cluster', file: 'examples/clusters/trn2-48xlarge.yaml', as: 'clusters/trn2-48xlarge.yaml' },
	{ name: 'clean-cluster-p5', file: 'examples/clusters/p5-48xlarge.yaml', as: 'clusters/p5-48xlarge.yaml' },
	{ name: 'broken-cluster', file: 'examples/broken/cluster.yaml', as: 'clusters/broken.yaml' },
	{ name: 'clean-jobspec', file: 'examples/jobs/moe-176b-trn2.yaml', as: 'jobs/moe-176b-trn2.yaml' },
	{ name: 'clean-tco', file: 'examples/tco/owned-h100-vs-trn2.yaml', as: 'tco/owned-h100-vs-trn2.yaml' },
	// no glob matches: the schema comes from the modeline
	{ name: 'modeline', file: 'examples/broken/cluster.yaml', as: 'other/broken.yaml',
		edit: (t) => `# yaml-language-server: $schema=${schemaUri('parallelcluster')}\n${t}` },
	// the clean config in a us-isob region (an if/then/not rule that carries
	// an x-message), on ubuntu2404 (an enum value with x-since), with an
	// FSx ExportPath but no ImportPath (dependentRequired, 2019-09 and later)
	{ name: 'keywords', file: 'examples/clusters/trn2-48xlarge.yaml', as: 'clusters/iso.yaml',
		edit: (t) => t.replace(/^Region: us-east-2$/m, 'Region: us-isob-east-1')
			.replace('Os: ubuntu2204', 'Os: ubuntu2404')
			.replace(/^( +)DataCompressionType: LZ4$/m, '$&\n$1ExportPath: s3://bucket/out') },
];
const settings = {
	yaml: {
		validate: true,
		hover: true,
		completion: true,
		schemaStore: { enable: false }, // no network, and no guessing from the catalog
		schemas: {
			[schemaUri('parallelcluster')]: ['**/clusters/*.yaml'],
			[schemaUri('jobspec')]: ['**/jobs/*.yaml'],
			[schemaUri('tco')]: ['**/tco/*.yaml'],
		},
	},
};

async function main() {
	const server = require.resolve('yaml-language-server/bin/yaml-language-server');
	const version = require('yaml-language-server/package.json').version;
	const proc = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
	let stderr = '';
	proc.stderr.on('data', (d) => { stderr += d; });
	const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(proc.stdout),
		new rpc.StreamMessageWriter(proc.stdin));
	const logs = [];
	const published = new Map();
	const waiters = new Set();
	conn.onNotification('window/logMessage', (p) => logs.push(p.message));
	conn.onNotification('window/showMessage', (p) => logs.push(p.message));
	conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
		published.set(p.uri, p.diagnostics);
		for (const w of [...waiters])
			w();
	});
	conn.onRequest('workspace/configuration', (p) => p.items.map((i) => settings[i.section] || null));
	conn.onRequest((method) => { if (debug) console.log('# request', method); return null; });
	conn.onNotification((method, p) => { if (debug) console.log('# notification', method, JSON.stringify(p)); });
	conn.listen();

	const wsUri = pathToFileURL(path.join(schemaDir, 'ws')).href;
	await conn.sendRequest(rpc.InitializeRequest.type, {
		processId: process.pid,
		rootUri: wsUri,
		workspaceFolders: [{ uri: wsUri, name: 'ws' }],
		capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
			textDocument: { publishDiagnostics: { relatedInformation: true } } },
	});
	await conn.sendNotification(rpc.InitializedNotification.type, {});
	await conn.sendNotification(rpc.DidChangeConfigurationNotification.type, { settings });

	const diags = {};
	for (const d of docs) {
		const uri = pathToFileURL(path.join(schemaDir, 'ws', d.as)).href;
		published.delete(uri);
		await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument:
			{ uri, languageId: 'yaml', version: 1, text: (d.edit || ((t) => t))(fs.readFileSync(path.join(root, d.file), 'utf8')) } });
		diags[d.name] = await new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no diagnostics for ${d.file}; stderr: ${stderr}`)), 20000);
			const check = () => {
				if (!published.has(uri))
					return;
				clearTimeout(timer);
				waiters.delete(check);
				resolve(published.get(uri));
			};
			waiters.add(check);
			check();
		});
		if (debug)
			for (const x of diags[d.name])
				console.log(`# ${d.name} ${x.range.start.line + 1}:${x.range.start.character + 1} sev ${x.severity} ${x.message.replace(/\n/g, ' ')}`);
	}
	const errors = (name) => diags[name].filter((x) => x.severity === 1);
	const show = (list) => list.map((x) => `${x.range.start.line + 1}: ${x.message}`).join(' | ');

	console.log(`# yaml-language-server ${version}`);
	for (const name of ['clean-cluster', 'clean-cluster-p5', 'clean-jobspec', 'clean-tco'])
		result(errors(name).length === 0, `${name}-no-errors`, show(errors(name)));
	const broken = errors('broken-cluster');
	const at = (line, re) => broken.some((x) => x.range.start.line === line - 1 && re.test(x.message));
	result(at(27, /ONDEMAND|not accepted|enum|allowed/i), 'broken-spot-enum', show(broken));
	result(broken.some((x) => /VolumeTpye/.test(x.message)), 'broken-unknown-key-VolumeTpye', show(broken));
	result(broken.length === 3 && at(41, /unique/), 'broken-nothing-else', show(broken));
	result(errors('modeline').some((x) => x.range.start.line === 52 && /VolumeTpye/.test(x.message)),
		'modeline-association', show(errors('modeline')));

	// 2020-12 keywords at work; x-message is not read (yamlls reads only its
	// own errorMessage), so the rule shows yamlls's generic text
	const kw = errors('keywords');
	const kwAt = (line, re) => kw.some((x) => x.range.start.line === line - 1 && re.test(x.message));
	result(kwAt(46, /ImportPath/), 'dependentRequired', show(kw));
	result(kwAt(4, /not allowed/), 'if-then-not-rule', show(kw));
	result(!diags.keywords.some((x) => x.range.start.line === 5), 'x-since-value-accepted', show(diags.keywords));
	result(kw.length === 2, 'keywords-nothing-else', show(kw));

	const all = Object.values(diags).flat().map((x) => x.message).concat(logs, [stderr]);
	const custom = all.filter((m) => /x-message|x-since|unknown keyword|strict mode|unknown format/i.test(m));
	result(custom.length === 0, 'custom-keywords-accepted', custom.join(' | '));
	const trouble = all.filter((m) => /Unable to load schema|Problems loading reference|Unable to parse|invalid schema/i.test(m));
	result(trouble.length === 0, 'schemas-load', trouble.join(' | '));
	if (debug)
		console.log('# logs:', JSON.stringify(logs), '\n# stderr:', stderr);

	await conn.sendRequest(rpc.ShutdownRequest.type);
	await conn.sendNotification(rpc.ExitNotification.type);
	setTimeout(() => proc.kill(), 2000).unref();
	conn.dispose();
	process.exit(failed ? 1 : 0);
}

main().catch((e) => {
	result(false, 'session', e.message);
	process.exit(1);
});
