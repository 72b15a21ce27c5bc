/// `verify.js`: the page checks its own records in the reader's browser, with WebCrypto only (SHA-256 and
/// Ed25519), no server and nothing fetched. It is a second reading of the rules of docs/FORMAT.md
/// ("Transparency") and of C2SP tlog-checkpoint, signed-note and tlog-cosignature, written from them:
///
/// 1. the log key (`data-log-key`, C2SP verifier key `<name>+<hex key ID>+base64(0x01 || key)`): its key ID
///    is `SHA-256(name || 0x0A || 0x01 || key)[:4]`;
/// 2. the checkpoint note (`.checkpoint-note`): exactly one signature line by the log key (name and key ID),
///    an Ed25519 signature over the note's text that verifies; the text is `<origin>\n<size>\n<root>\n`
///    with the origin the key's name;
/// 3. with witnesses (`data-witnesses`, type 0x04 keys, a witness being its public key), at least
///    `data-quorum` of them carry one cosignature/v1 line: 8-byte big-endian time, then Ed25519 over
///    `cosignature/v1\ntime <time>\n<checkpoint text>`;
/// 4. each record (`.record` with `.record-bytes` and `.log-proof`): entry
///    `{"path":"<path>","sha256":"<hex SHA-256 of the bytes>"}`, leaf `SHA-256(0x00 || entry)`, the RFC 9162
///    §2.1.3.2 walk up the proof (`SHA-256(0x01 || left || right)`) to the checkpoint's root.
///
/// The result is `#proof-status`'s `data-status` (`verified` or `failed`; `unsupported` where the browser
/// lacks WebCrypto's Ed25519) and each record's `data-verified`, with words a reader can read.
enum VerifyScript {
    static let source = """
        "use strict";
        (function () {
          var box = document.getElementById("log-check");
          var status = document.getElementById("proof-status");
          if (!box || !status) { return; }
          var subtle = window.crypto && window.crypto.subtle;
          function report(state, text) { status.setAttribute("data-status", state); status.textContent = text; }
          if (!subtle) {
            report("unsupported", "Not checked: this browser gives the page no WebCrypto (it needs https or a file opened from disk).");
            return;
          }
          function Problem(text) { this.text = text; }
          function Unsupported(text) { this.text = text; }
          function utf8(text) { return new TextEncoder().encode(text); }
          function join(parts) {
            var length = 0, at = 0;
            parts.forEach(function (part) { length += part.length; });
            var out = new Uint8Array(length);
            parts.forEach(function (part) { out.set(part, at); at += part.length; });
            return out;
          }
          function same(a, b) {
            if (a.length !== b.length) { return false; }
            for (var i = 0; i < a.length; i++) { if (a[i] !== b[i]) { return false; } }
            return true;
          }
          function hex(bytes) {
            return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
          }
          function base64(text, what) {
            if (!/^[A-Za-z0-9+\\/]*={0,2}$/.test(text) || text.length % 4 !== 0) { throw new Problem(what + " is not base64"); }
            var binary = atob(text), out = new Uint8Array(binary.length);
            for (var i = 0; i < binary.length; i++) { out[i] = binary.charCodeAt(i); }
            return out;
          }
          async function sha256(bytes) { return new Uint8Array(await subtle.digest("SHA-256", bytes)); }

          // A C2SP verifier key of `type`: name, key ID (checked against the key), public key.
          async function verifierKey(text, type) {
            var first = text.indexOf("+"), second = text.indexOf("+", first + 1);
            if (first <= 0 || second < 0) { throw new Problem("the key " + text + " is not <name>+<key ID>+<key>"); }
            var name = text.slice(0, first), id = text.slice(first + 1, second);
            var raw = base64(text.slice(second + 1), "the key " + text);
            if (!/^[0-9a-f]{8}$/.test(id) || raw.length !== 33 || raw[0] !== type) {
              throw new Problem("the key " + text + " is not a type " + type + " Ed25519 verifier key");
            }
            var digest = await sha256(join([utf8(name), new Uint8Array([0x0a]), raw]));
            if (hex(digest.slice(0, 4)) !== id) { throw new Problem("the key " + text + " has the wrong key ID"); }
            var key;
            try {
              key = await subtle.importKey("raw", raw.slice(1), { name: "Ed25519" }, false, ["verify"]);
            } catch (error) {
              throw new Unsupported("this browser's WebCrypto has no Ed25519 (" + error + ")");
            }
            return { name: name, id: id, publicKey: hex(raw.slice(1)), key: key };
          }

          // A signed note: its text (through the newline before the blank line) and its signature lines.
          function signedNote(note) {
            var split = note.lastIndexOf("\\n\\n");
            if (split < 0 || note[note.length - 1] !== "\\n") { throw new Problem("the checkpoint is not a signed note"); }
            var lines = note.slice(split + 2, -1).split("\\n").map(function (line) {
              var fields = line.split(" ");
              if (fields.length !== 3 || fields[0] !== "\\u2014") { throw new Problem("a checkpoint signature line is malformed"); }
              var raw = base64(fields[2], "a checkpoint signature");
              if (raw.length <= 4) { throw new Problem("a checkpoint signature line is too short"); }
              return { name: fields[1], id: hex(raw.slice(0, 4)), payload: raw.slice(4) };
            });
            return { text: note.slice(0, split + 1), lines: lines };
          }
          function soleLine(note, key) {
            var lines = note.lines.filter(function (line) { return line.name === key.name && line.id === key.id; });
            return lines.length === 1 ? lines[0] : null;
          }

          // The checkpoint: signed by the log key, its body that key's origin, a size and a root.
          async function checkpoint(logKey, note) {
            var line = soleLine(note, logKey);
            if (!line || line.payload.length !== 64) { throw new Problem("the checkpoint carries no single signature by the log key"); }
            if (!(await subtle.verify({ name: "Ed25519" }, logKey.key, line.payload, utf8(note.text)))) {
              throw new Problem("the checkpoint's signature does not verify under the log key");
            }
            var body = note.text.split("\\n");
            if (body.length !== 4 || body[0] !== logKey.name || !/^(0|[1-9][0-9]*)$/.test(body[1])) {
              throw new Problem("the checkpoint is not a checkpoint of " + logKey.name);
            }
            var root = base64(body[2], "the checkpoint's root");
            if (root.length !== 32) { throw new Problem("the checkpoint's root is not a SHA-256 hash"); }
            return { size: Number(body[1]), root: root };
          }

          // How many witnesses (a witness is its public key) carry a valid cosignature/v1 line.
          async function cosigners(keys, note) {
            var seen = {}, names = [];
            for (var i = 0; i < keys.length; i++) {
              var key = keys[i];
              if (seen[key.publicKey]) { continue; }
              var line = soleLine(note, key);
              if (!line || line.payload.length !== 72) { continue; }
              var view = new DataView(line.payload.buffer, line.payload.byteOffset, 8);
              var time = view.getBigUint64(0);
              if (time > BigInt(Number.MAX_SAFE_INTEGER)) { continue; }
              var message = utf8("cosignature/v1\\ntime " + time.toString() + "\\n" + note.text);
              if (await subtle.verify({ name: "Ed25519" }, key.key, line.payload.slice(8), message)) {
                seen[key.publicKey] = true;
                names.push(key.name);
              }
            }
            return names;
          }

          // One record: its bytes' entry and leaf, up its proof to `head`'s root (RFC 9162 §2.1.3.2).
          async function record(block, head) {
            var proof = block.querySelector(".log-proof"), bytes = block.querySelector(".record-bytes");
            if (!proof || !bytes) { throw new Problem("it carries no proof"); }
            var indexText = proof.getAttribute("data-leaf-index") || "", path = proof.getAttribute("data-path") || "";
            if (!/^(0|[1-9][0-9]*)$/.test(indexText)) { throw new Problem("its leaf index is not a number"); }
            if (!/^[A-Za-z0-9._\\/-]+$/.test(path)) { throw new Problem("its path is not a ledger path"); }
            var index = Number(indexText);
            var entry = utf8('{"path":"' + path + '","sha256":"' + hex(await sha256(utf8(bytes.textContent))) + '"}');
            var running = await sha256(join([new Uint8Array([0]), entry]));
            var hashes = proof.querySelector(".proof-hashes").textContent.split(/\\s+/).filter(function (h) { return h !== ""; });
            if (index >= head.size) { throw new Problem("its leaf " + index + " is past the checkpoint's size"); }
            var fn = index, sn = head.size - 1;
            for (var i = 0; i < hashes.length; i++) {
              var sibling = base64(hashes[i], "a proof hash");
              if (sibling.length !== 32 || sn === 0) { throw new Problem("its proof does not fit leaf " + index); }
              if (fn % 2 === 1 || fn === sn) {
                running = await sha256(join([new Uint8Array([1]), sibling, running]));
                while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
              } else {
                running = await sha256(join([new Uint8Array([1]), running, sibling]));
              }
              fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
            }
            if (sn !== 0 || !same(running, head.root)) {
              throw new Problem("these bytes, leaf " + index + " and its proof do not lead to the checkpoint's root");
            }
            return index;
          }

          function mark(block, verified, text) {
            block.setAttribute("data-verified", verified ? "true" : "false");
            var label = block.querySelector(".proof-result");
            if (!label) {
              label = document.createElement("p");
              var heading = block.querySelector("h3");
              if (heading) { heading.insertAdjacentElement("afterend", label); } else { block.insertBefore(label, block.firstChild); }
            }
            label.className = "proof-result " + (verified ? "ok" : "bad");
            label.textContent = text;
          }

          async function run() {
            var blocks = Array.prototype.slice.call(document.querySelectorAll(".record"));
            var logKey, note, head, witnessed = [];
            try {
              logKey = await verifierKey(box.getAttribute("data-log-key") || "", 1);
              note = signedNote(box.querySelector(".checkpoint-note").textContent);
              head = await checkpoint(logKey, note);
              var witnessText = (box.getAttribute("data-witnesses") || "").trim();
              var quorum = Number(box.getAttribute("data-quorum") || "0");
              if (witnessText !== "") {
                var keys = [];
                var texts = witnessText.split(/\\s+/);
                for (var w = 0; w < texts.length; w++) { keys.push(await verifierKey(texts[w], 4)); }
                witnessed = await cosigners(keys, note);
                if (witnessed.length < quorum) {
                  throw new Problem(witnessed.length + " of the " + quorum + " witness cosignatures needed verify");
                }
              }
            } catch (error) {
              if (error instanceof Unsupported) {
                report("unsupported", "Not checked: " + error.text + "; use the commands below each record.");
                return;
              }
              var why = error instanceof Problem ? error.text : "the check could not run (" + error + ")";
              blocks.forEach(function (block) { mark(block, false, "Not verified: the checkpoint does not check."); });
              report("failed", "FAILED in your browser: " + why + ". Do not rely on this page.");
              return;
            }
            var failures = [];
            for (var i = 0; i < blocks.length; i++) {
              try {
                var index = await record(blocks[i], head);
                mark(blocks[i], true, "Verified in your browser: these exact bytes are leaf " + index + " of the log at size " + head.size + ".");
              } catch (error) {
                var reason = error instanceof Problem ? error.text : String(error);
                mark(blocks[i], false, "NOT verified in your browser: " + reason + ".");
                failures.push(reason);
              }
            }
            var cosigned = witnessed.length === 0 ? "" : ", cosigned by " + witnessed.join(", ");
            if (failures.length > 0) {
              report("failed", "FAILED in your browser: " + failures.length + " of the " + blocks.length +
                " records on this page do not check against the checkpoint of " + logKey.name + " at size " + head.size + ".");
            } else {
              report("verified", "Verified in your browser: " + (blocks.length === 1 ? "the record on this page is" : "the " + blocks.length + " records on this page are") + " in the log " +
                logKey.name + " at size " + head.size + ", under its checkpoint signed by the log key shown below" + cosigned + ".");
            }
          }
          run().catch(function (error) { report("failed", "FAILED in your browser: the check stopped (" + error + ")."); });
        })();

        """

    /// What the page's check looks like: the result box, and each record's label.
    static let stylesheet = """
        .browser-check { border: 1px solid var(--line); border-radius: 6px; padding: 0 1rem; margin: 1rem 0; }
        #proof-status { font-weight: 600; }
        #proof-status[data-status=verified], .proof-result.ok { color: var(--ok); }
        #proof-status[data-status=failed], .proof-result.bad { color: var(--bad); }
        .record[data-verified=false] { border-color: var(--bad); border-width: 2px; }
        pre.proof-hashes, pre.checkpoint-note { font-size: .75em; }

        """

    /// The section of `verify.html` the pages' "more" link leads to: what the browser checks and what not.
    static let explanation = """
        <h2 id="in-your-browser">What your browser checks on each page</h2>
        <p>Every page that shows records carries, for each one, its exact stored bytes (the canonical JSON shown), its
        leaf index and its inclusion proof in the ledger's transparency log, and the log's signed checkpoint. The page's
        script (<code>verify.js</code>, no server, nothing fetched) hashes the bytes (SHA-256), builds the leaf entry
        <code>{"path":…,"sha256":…}</code> and its leaf hash, follows the proof to the root (RFC 6962), checks that the
        root is the checkpoint's and that the checkpoint's Ed25519 signature verifies under the log key the page names
        and, when the report was made with witnesses, their cosignatures. The result is at the top of the page and on
        each record.</p>
        <p>What it does not check: that the log key is the right one. The page names the key it checked against (the
        ledger descriptor's <code>log</code>); it proves the records are in the log signed by that key, and nothing
        more unless you compare that key with the one you hold from the vendor or your own copy of the ledger. Nor does
        it check the rules (who may write what): that is <code>onym-ledger verify</code>'s job, above. And a checkpoint
        says the log had these records when it was signed, not that it showed the same log to everyone: witnesses'
        cosignatures and <code>onym-ledger cosign</code> are for that.</p>

        """
}
