// editors/trainforge-matcher.json against real output: every line of
// `trainforge lint --format concise` matches and yields the file, line,
// column, severity, message and rule; in the text format (coloured too)
// the first line of each finding matches and no context line does.
// docs/editors.md shows the same pattern. Prints RESULT lines; exits 1 on
// a failure.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '../..');
const TF = process.env.TF || path.join(root, 'build/rel/trainforge');
let failed = 0;
function result(ok, name, detail) {
	console.log(`RESULT ${ok ? 'pass' : 'fail'} matcher/${name}${ok || !detail ? '' : ': ' + detail}`);
	if (!ok)
		failed++;
}

const spec = JSON.parse(fs.readFileSync(path.join(root, 'editors/trainforge-matcher.json'), 'utf8'));
const matcher = spec.problemMatcher[0];
const pat = matcher.pattern[0];
const re = new RegExp(pat.regexp);
result(matcher.owner === 'trainforge' && ['file', 'line', 'column', 'severity', 'message', 'code']
	.every((k) => Number.isInteger(pat[k])), 'shape');

const inputs = ['examples/broken/cluster.yaml', 'examples/broken/train.sbatch',
	'tests/cases/JS2001/bad.yaml', 'tests/cases/PC1004', 'tests/cases/LN1001'];
const lint = (args) => {
	try {
		return execFileSync(TF, ['lint', '-q', '--shellcheck', 'off', ...args, ...inputs],
			{ cwd: root, encoding: 'utf8' });
	} catch (e) {
		return e.stdout; // exit 1: findings
	}
};

const concise = lint(['--format', 'concise']).split('\n').filter((l) => l);
const bad = concise.filter((l) => !re.test(l));
result(concise.length > 20 && bad.length === 0, 'every-concise-line', `${concise.length} lines; unmatched: ${bad.join(' | ')}`);
const sev = new Set(concise.map((l) => re.exec(l)[pat.severity]));
result([...sev].every((s) => ['error', 'warning', 'info'].includes(s)), 'severities', [...sev].join());
const first = re.exec(concise.find((l) => l.includes('[PC2201]')) || '');
result(first && first[pat.file] === 'examples/broken/cluster.yaml' && first[pat.line] === '19' &&
	first[pat.column] === '21' && first[pat.severity] === 'error' && first[pat.code] === 'PC2201' &&
	/^MinCount 8 is above MaxCount 4$/.test(first[pat.message]), 'fields', first && first.slice(1).join(' | '));

for (const color of ['never', 'always']) {
	const text = lint(['--format', 'text', '--color', color]).split('\n').filter((l) => l);
	const hits = text.filter((l) => re.test(l)).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
	result(hits.length === concise.length && hits.every((h, i) => h === concise[i]), `text-format-color-${color}`,
		`${hits.length} of ${concise.length} findings`);
}

// docs/editors.md shows the same matcher inline, for tasks.json
const doc = fs.readFileSync(path.join(root, 'docs/editors.md'), 'utf8');
const shown = /"regexp": ("(?:[^"\\]|\\.)*")/.exec(doc);
result(shown && JSON.parse(shown[1]) === pat.regexp, 'docs-show-the-same-regexp');
process.exit(failed ? 1 : 0);
