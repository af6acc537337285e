// RESULT lines for the suite's scripts: require('./results.js')(PREFIX)
// gives result(ok, name, detail), check(name, fn) (passes when fn, which
// may be async, throws nothing; the thrown message is the detail) and
// failures(), the count so far.
'use strict';

module.exports = (prefix) => {
	let failed = 0;
	const result = (ok, name, detail) => {
		console.log(`RESULT ${ok ? 'pass' : 'fail'} ${prefix}/${name}${ok || !detail ? '' : ': ' + detail}`);
		if (!ok)
			failed++;
	};
	const check = async (name, fn) => {
		try {
			await fn();
			result(true, name);
		} catch (e) {
			result(false, name, (e && e.message ? e.message : String(e)).slice(0, 2000));
		}
	};
	return { result, check, failures: () => failed };
};
