/// The site's stylesheet, its one script (search), and the "check it yourself" page: static text, the
/// same for every ledger.
enum SiteAssets {
    static let stylesheet = """
        :root { color-scheme: light dark; --fg: #1b1f24; --bg: #fdfdfc; --muted: #5b6470; --line: #d5d9de;
          --ok: #1d6b3a; --bad: #a4262c; --open: #b26b00; --ban: #a4262c; --dismiss: #2f6db5; --okbar: #3c8d5a; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e6e8eb; --bg: #15181c; --muted: #9aa3ad; --line: #343a42;
          --ok: #6fcf97; --bad: #ff8a80; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
        header, main, footer { max-width: 60rem; margin: 0 auto; padding: 0 1rem; }
        header nav { display: flex; flex-wrap: wrap; gap: 1rem; padding: .75rem 0; border-bottom: 1px solid var(--line); }
        footer { color: var(--muted); font-size: .875rem; border-top: 1px solid var(--line); margin-top: 2rem; }
        h1 { font-size: 1.6rem; overflow-wrap: anywhere; }
        h2 { font-size: 1.25rem; margin-top: 2rem; overflow-wrap: anywhere; }
        h3 { font-size: 1rem; margin: .5rem 0; overflow-wrap: anywhere; }
        a { color: inherit; text-decoration-thickness: 1px; }
        code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .85em; }
        code { overflow-wrap: anywhere; }
        code.word { white-space: nowrap; overflow-wrap: normal; }
        pre { white-space: pre-wrap; overflow-wrap: anywhere; background: rgba(127,127,127,.08); padding: .5rem; border-radius: 4px; }
        .table-box { max-width: 100%; overflow-x: auto; margin: .75rem 0; }
        table { border-collapse: collapse; }
        caption { text-align: left; font-weight: 600; padding-bottom: .25rem; }
        th, td { border-bottom: 1px solid var(--line); padding: .25rem .6rem .25rem 0; text-align: left; vertical-align: top; }
        .columns { display: flex; flex-wrap: wrap; gap: 2rem; align-items: flex-start; }
        dl.facts { display: grid; grid-template-columns: minmax(8rem, max-content) 1fr; gap: .25rem 1rem; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        @media (max-width: 36rem) { dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: .5rem; }
          .table-box table, .table-box caption, .table-box tbody, .table-box tr, .table-box td { display: block; }
          .table-box thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
          .table-box tr { border-bottom: 1px solid var(--line); padding: .25rem 0; }
          .table-box td { border: 0; padding: 0; }
          .table-box td[data-label]:not([data-label=""])::before { content: attr(data-label) ": "; color: var(--muted); } }
        .verification { border: 2px solid var(--ok); border-radius: 6px; padding: 0 1rem; margin-top: 1rem; }
        .verification.findings { border-color: var(--bad); }
        .verification h2 { margin-top: .75rem; }
        .finding, .revoked { color: var(--bad); }
        .verified-line { color: var(--muted); font-size: .9rem; }
        ol.story { list-style: none; padding: 0; }
        ol.story > li { border-left: 3px solid var(--line); padding: .25rem 0 .5rem 1rem; margin-bottom: .75rem; }
        .when { color: var(--muted); margin: 0; font-size: .9rem; }
        .record { border: 1px solid var(--line); border-radius: 4px; padding: .25rem .75rem; margin: .5rem 0; }
        blockquote { margin: .5rem 0; padding-left: .75rem; border-left: 3px solid var(--line); overflow-wrap: anywhere; }
        main p { overflow-wrap: anywhere; }
        svg.chart { width: 100%; max-width: 760px; height: auto; }
        svg .axis { font-size: 10px; fill: var(--muted); }
        .write-ok { fill: var(--okbar); } .write-failed { fill: var(--bad); }
        .open-case { fill: var(--open); } .ban { fill: var(--ban); } .dismiss { fill: var(--dismiss); }
        .key { display: inline-block; width: .8em; height: .8em; margin: 0 .25em 0 .75em; }
        .key.write-ok { background: var(--okbar); } .key.write-failed { background: var(--bad); }
        .key.open-case { background: var(--open); } .key.ban { background: var(--ban); } .key.dismiss { background: var(--dismiss); }
        form[role=search] { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
        input[type=search] { flex: 1 1 20rem; padding: .4rem; font: inherit; }

        """

    /// The search script: reads `?q=`, loads the one shard that can hold it, lists what it names.
    static let searchScript = """
        "use strict";
        (function () {
          var query = new URLSearchParams(window.location.search).get("q");
          var input = document.getElementById("q");
          var results = document.getElementById("results");
          if (query === null) { return; }
          query = query.trim();
          input.value = query;
          var shown = 100;
          var kinds = ["enrollment:", "onym:key:"];
          var lower = query.replace(/[A-Z]/g, function (letter) { return letter.toLowerCase(); });
          var kind = "";
          var part = lower;
          kinds.forEach(function (prefix) {
            if (lower.indexOf(prefix) === 0) { kind = prefix; part = lower.slice(prefix.length); }
          });
          function say(text) {
            results.textContent = "";
            var line = document.createElement("p");
            line.textContent = text;
            results.appendChild(line);
          }
          var head = new TextEncoder().encode(part).slice(0, 2);
          if (head.length < 2) {
            say("Type at least two characters of the device binding or identity (after enrollment: or onym:key:).");
            return;
          }
          var hash = 0x811c9dc5;
          for (var i = 0; i < head.length; i++) { hash ^= head[i]; hash = Math.imul(hash, 0x01000193) >>> 0; }
          var shard = ("0" + (hash & 0xff).toString(16)).slice(-2);
          function partOf(key) {
            for (var k = 0; k < kinds.length; k++) {
              if (key.indexOf(kinds[k]) === 0) { return key.slice(kinds[k].length); }
            }
            return key;
          }
          window.onymSearchShard = function (name, table) {
            if (name !== shard) { return; }
            var found = [];
            Object.keys(table).sort().forEach(function (key) {
              if (kind !== "" && key.indexOf(kind) !== 0) { return; }
              if (partOf(key).indexOf(part) !== 0) { return; }
              table[key].forEach(function (item) { found.push(item); });
            });
            if (found.length === 0) { say("No device binding or identity in this ledger starts with " + query + "."); return; }
            var count = found.length === 1 ? "1 result" : found.length + " results";
            say(found.length > shown ? count + "; the first " + shown + " are shown: type more characters to narrow it." : count + ":");
            var list = document.createElement("ul");
            found.slice(0, shown).forEach(function (item) {
              var entry = document.createElement("li");
              var link = document.createElement("a");
              link.textContent = item[0];
              link.setAttribute("href", item[1]);
              entry.appendChild(link);
              list.appendChild(entry);
            });
            results.appendChild(list);
          };
          var script = document.createElement("script");
          script.src = "search/" + shard + ".js";
          script.onerror = function () { say("The search index could not be loaded."); };
          document.body.appendChild(script);
        })();

        """

    static func verifyPage() -> String {
        let body = """
            <p>This site is a reading of the ledger, not the proof. The proof is the git repository: signed commits of
            content-addressed records, and a transparency log. Anyone can check it offline with
            <code>onym-ledger</code>, without trusting this site or the vendor's servers.</p>
            <h2>Verify the whole ledger</h2>
            <pre>git clone LEDGER-URL ledger.git
            onym-ledger verify ledger.git --trust TRUST</pre>
            <p><code>TRUST</code> is the root of trust: the key (or its <code>SHA256:</code> fingerprint) allowed to sign the
            ledger's first commit, which the overview page lists. <code>verify</code> checks every commit's signature, every
            record's content address and signatures, the write log's hash chain, and replays every bit write against the
            rules; exit 0 means verified, 2 verified with conduct findings, 1 not authentic.</p>
            <h2>Check one record</h2>
            <pre>onym-ledger show ledger.git ADDRESS          # the record's exact bytes
            onym-ledger prove ledger.git ADDRESS &gt; proof.txt
            onym-ledger check-proof proof.txt --log-key VKEY RECORD-FILE</pre>
            <p>A proof shows the record is in the ledger's transparency log, whose checkpoints witnesses cosign; it can be
            checked without the ledger.</p>
            \(VerifyScript.explanation)<h2>Read the history with stock git</h2>
            <pre>onym-ledger git-setup ledger.git
            git -C ledger.git log -p --show-signature</pre>

            """
        return HTML.page(title: "Check it yourself", depth: 0, body: body)
    }
}
