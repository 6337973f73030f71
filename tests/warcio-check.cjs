// warcio-check.cjs: reads WARC files with warcio.js (npm warcio) and
// checks the digests sluice wrote against the bytes warcio's reader
// yields.  NODE_MODULES names the node_modules folder holding warcio.
//
//   node warcio-check.cjs records FILE...   one JSON line a record: file,
//     offset, length, type, uri, id, the WARC fields the tests read,
//     http_status, block_ok and payload_ok (null when the record has no
//     such digest), payload_len
//   node warcio-check.cjs index FILE...     warcio's own CDXJ index of
//     the files, for comparing with sink's .cdxj
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { WARCParser, CDXIndexer } = require(path.join(process.env.NODE_MODULES, 'warcio'));

// RFC 4648 base32, as WARC digests write SHA-1.
function base32(buf) {
	const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
	let bits = 0, value = 0, out = '';
	for (const b of buf) {
		value = (value << 8) | b;
		bits += 8;
		while (bits >= 5) {
			out += abc[(value >>> (bits - 5)) & 31];
			bits -= 5;
		}
	}
	if (bits > 0)
		out += abc[(value << (5 - bits)) & 31];
	return out;
}
const sha1 = (bytes) => 'sha1:' + base32(crypto.createHash('sha1').update(bytes).digest());

async function records(file) {
	// The whole block, HTTP head and all, for the block digest.
	const blocks = [];
	for await (const r of new WARCParser(fs.createReadStream(file), { parseHttp: false }))
		blocks.push(await r.readFully());
	const parser = new WARCParser(fs.createReadStream(file));
	let i = 0;
	for await (const r of parser) {
		const h = (k) => r.warcHeader(k) || null;
		const payload = await r.readFully(false);
		const block = blocks[i++];
		const pd = h('WARC-Payload-Digest');
		const out = {
			file: path.basename(file), offset: parser.offset, type: r.warcType, uri: h('WARC-Target-URI'),
			id: h('WARC-Record-ID'), date: h('WARC-Date'), warcinfo: h('WARC-Warcinfo-ID'),
			concurrent: h('WARC-Concurrent-To'), ip: h('WARC-IP-Address'), profile: h('WARC-Profile'),
			refers_to: h('WARC-Refers-To'), refers_to_uri: h('WARC-Refers-To-Target-URI'),
			refers_to_date: h('WARC-Refers-To-Date'), truncated: h('WARC-Truncated'),
			ctype: h('Content-Type'), filename: h('WARC-Filename'), payload_digest: pd,
			http_status: r.httpHeaders ? r.httpHeaders.statusCode : null,
			http_headers: r.httpHeaders ? Object.fromEntries(r.httpHeaders.headers) : null,
			block_len: block.length, payload_len: payload.length,
			block_ok: h('WARC-Block-Digest') ? sha1(block) === h('WARC-Block-Digest') : null,
			// A revisit holds no payload: its digest is the original's.
			payload_ok: pd && r.warcType !== 'revisit' ? sha1(payload) === pd : null,
		};
		if (r.warcType === 'warcinfo' || r.warcType === 'metadata')
			out.text = new TextDecoder().decode(block);
		process.stdout.write(JSON.stringify(out) + '\n');
	}
}

(async () => {
	const [mode, ...files] = process.argv.slice(2);
	if (mode === 'records') {
		for (const f of files)
			await records(f);
	} else {
		const indexer = new CDXIndexer({ format: 'cdxj' });
		await indexer.writeAll(files.map((f) => ({ filename: path.basename(f), reader: fs.createReadStream(f) })),
			process.stdout);
	}
})().catch((e) => {
	console.error('warcio-check: ' + (e && e.stack || e));
	process.exit(1);
});
