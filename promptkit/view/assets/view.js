/* promptkit view: builds the page from the JSON in #pk-data.
 *
 * Row text only ever enters the page as text nodes (textContent / createTextNode) and
 * title attributes; the only URLs set are the data:image/ thumbnails promptkit made.
 * Rows are built when opened, and the list grows a page at a time as it is scrolled.
 */
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("pk-data").textContent);
  const PAGE = 100;
  const PIECES = [
    ["k-system", "system"], ["k-shot", "shot"], ["k-shot-answer", "shot answer"], ["k-history", "history"],
    ["k-history-answer", "history answer"], ["k-query", "query"], ["k-answer", "answer slot"], ["k-text", "other text"],
    ["k-wrapper", "model wrapper"],
  ];
  const INVISIBLE = {
    "\u00a0": "NO-BREAK SPACE", "\u00ad": "SOFT HYPHEN", "\u200b": "ZERO WIDTH SPACE", "\u200c": "ZERO WIDTH NON-JOINER",
    "\u200d": "ZERO WIDTH JOINER", "\u200e": "LEFT-TO-RIGHT MARK", "\u200f": "RIGHT-TO-LEFT MARK", "\u2028": "LINE SEPARATOR",
    "\u2029": "PARAGRAPH SEPARATOR", "\u2060": "WORD JOINER", "\ufeff": "ZERO WIDTH NO-BREAK SPACE",
  };
  const MEDIA_TYPES = { image_url: "image", audio_url: "audio", video_url: "video" };

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  // The model's control tokens, longest first, as one pattern (null: none known).
  const TOKENS = DATA.models.map(function (model) {
    if (!model.tokens.length) return null;
    const sorted = model.tokens.slice().sort(function (a, b) { return b.length - a.length; });
    return new RegExp(sorted.map(escapeRegExp).join("|"), "g");
  });

  // ---- text with its spans, special tokens and invisible characters made visible ----------
  function specials(text, tokens) {
    const found = [];
    let match;
    if (tokens) {
      tokens.lastIndex = 0;
      while ((match = tokens.exec(text))) found.push([match.index, match.index + match[0].length, "tok"]);
    }
    const trailing = / +(?=\n|$)/g;
    while ((match = trailing.exec(text))) found.push([match.index, match.index + match[0].length, "trail"]);
    const chars = /[\n\t\r\u00a0\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff]/g;
    while ((match = chars.exec(text))) found.push([match.index, match.index + 1, "char"]);
    found.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
    const kept = [];
    let end = 0;
    for (const item of found) if (item[0] >= end) { kept.push(item); end = item[1]; }
    return kept;
  }

  function pieceClass(piece) {
    const shot = /^shot\[(\d+)\](\.answer)?$/.exec(piece);
    if (shot) return (shot[2] ? "sp k-shot-answer" : "sp k-shot") + (Number(shot[1]) % 2 ? " s-odd" : " s-even");
    const known = { system: "k-system", history: "k-history", "history.answer": "k-history-answer", query: "k-query",
      answer_slot: "k-answer", wrapper: "k-wrapper" }[piece];
    return "sp " + (known || "k-text");
  }

  function pieceTitle(span) {
    return span[0] + (span[4] !== null && span[4] !== undefined ? " · " + span[4] + " tokens (counted alone)" : "");
  }

  function special(kind, text) {
    if (kind === "tok") return el("span", "tok", text);
    if (kind === "trail") {
      const node = el("span", "ws trail", "·".repeat(text.length));
      node.title = text.length + " trailing space(s)";
      return node;
    }
    if (text === "\n") {
      const frag = document.createDocumentFragment();
      const mark = el("span", "ws nl", "⏎");
      mark.title = "newline";
      frag.appendChild(mark);
      frag.appendChild(document.createTextNode("\n"));
      return frag;
    }
    if (text === "\t") {
      const frag = document.createDocumentFragment();
      const mark = el("span", "ws tab", "→");
      mark.title = "tab";
      frag.appendChild(mark);
      frag.appendChild(document.createTextNode("\t"));
      return frag;
    }
    if (text === "\r") return el("span", "ws cr", "␍");
    const code = "U+" + text.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    const node = el("span", "zw", code);
    node.title = code + " " + (INVISIBLE[text] || "");
    return node;
  }

  function slotMark(span) {
    const node = el("span", pieceClass(span[0]) + " slot", "gen ▸");
    node.dataset.piece = span[0];
    node.title = "answer slot: generation starts here";
    return node;
  }

  // Appends `text` to `parent`: one element per span (spans: [piece, start, end, message?, tokens?]), the scored
  // continuation of a ppl label (from offset `cont`) underlined, tokens and invisible characters marked.
  function renderText(parent, text, spans, cont, tokens) {
    if (!text.length && !spans.length) {
      parent.appendChild(el("span", "empty", "∅"));
      return;
    }
    const marks = specials(text, tokens);
    const cuts = new Set([0, text.length]);
    const ranges = [];
    const empties = [];
    for (const span of spans) {
      if (span[2] > span[1]) { ranges.push(span); cuts.add(span[1]); cuts.add(span[2]); } else empties.push(span);
    }
    ranges.sort(function (a, b) { return a[1] - b[1]; });
    for (const mark of marks) { cuts.add(mark[0]); cuts.add(mark[1]); }
    if (typeof cont === "number" && cont < text.length) cuts.add(cont);
    const points = Array.from(cuts).sort(function (a, b) { return a - b; });
    let r = 0, m = 0, e = 0;
    let current = null, box = parent;
    for (let k = 0; k < points.length; k++) {
      const start = points[k];
      while (e < empties.length && empties[e][1] <= start) box.appendChild(slotMark(empties[e++]));
      if (k + 1 === points.length) break;
      const end = points[k + 1];
      while (r < ranges.length && ranges[r][2] <= start) r++;
      const span = r < ranges.length && ranges[r][1] <= start ? ranges[r] : null;
      while (m < marks.length && marks[m][1] <= start) m++;
      const mark = m < marks.length && marks[m][0] <= start ? marks[m] : null;
      if (span !== current) {
        current = span;
        if (span) {
          box = el("span", pieceClass(span[0]));
          box.dataset.piece = span[0];
          box.title = pieceTitle(span);
          parent.appendChild(box);
        } else box = parent;
      }
      const piece = text.slice(start, end);
      let node = mark ? special(mark[2], piece) : document.createTextNode(piece);
      if (typeof cont === "number" && start >= cont) {
        const wrap = el("span", "cont");
        wrap.title = "the scored continuation (where this label's prompt parts from the others')";
        wrap.appendChild(node);
        node = wrap;
      }
      box.appendChild(node);
    }
  }

  // ---- media -------------------------------------------------------------------------------
  function mediaNode(ref) {
    const media = DATA.media[ref];
    const figure = el("figure", "media");
    figure.style.margin = "0";
    if (media.src && media.src.indexOf("data:image/") === 0) {
      const img = el("img", "thumb");
      img.src = media.src;
      img.alt = media.desc;
      img.title = media.desc;
      figure.appendChild(img);
    } else {
      figure.appendChild(el("div", "nothumb", media.kind + (media.kind === "image" ? ": no thumbnail" : "")));
    }
    figure.appendChild(el("figcaption", null, media.desc));
    return figure;
  }

  // ---- the PromptList ----------------------------------------------------------------------
  function quoted(parent, text, tokens) {
    parent.appendChild(el("span", "quote", "«"));
    renderText(parent, text, [], null, tokens);
    parent.appendChild(el("span", "quote", "»"));
  }

  function renderPromptList(p, tokens) {
    const box = el("div", "text pl-body");
    let depth = 0;
    for (const item of p.pl) {
      const line = el("div", "pl-item");
      if (item[0] === "m") {
        if (item[2] === "end") depth -= 1;
        line.className = "pl-item pl-marker";
        line.textContent = (item[2] === "begin" ? "▸ " : "◂ ") + item[1] + " " + item[2];
        line.style.paddingLeft = depth * 1.5 + "em";
        if (item[2] === "begin") depth += 1;
      } else if (item[0] === "r") {
        line.style.paddingLeft = depth * 1.5 + "em";
        line.appendChild(el("span", "role role-" + item[1].replace(/[^A-Za-z0-9_-]/g, ""), item[1]));
        if (item[3]) line.appendChild(el("span", "quote", "(fallback " + item[3] + ") "));
        if (item[4]) {
          for (const part of item[4]) {
            if (part[0] === "text") quoted(line, DATA.texts[part[1]], tokens);
            else line.appendChild(mediaNode(part[1]));
          }
        } else if (item[2] === null) line.appendChild(el("span", "empty", "(no prompt)"));
        else quoted(line, DATA.texts[item[2]], tokens);
      } else {
        line.style.paddingLeft = depth * 1.5 + "em";
        line.appendChild(el("span", "quote", "text: "));
        quoted(line, DATA.texts[item[1]], tokens);
      }
      box.appendChild(line);
    }
    return box;
  }

  // ---- the final input ---------------------------------------------------------------------
  function renderFinal(p, tokens) {
    const box = el("div", "final");
    const spans = p.sp || [];
    if (typeof p.f === "string") {
      box.appendChild(el("div", "label", "final input: completion string" + (p.mm ? " + " + p.mm.length + " media" : "")));
      const text = el("div", "text");
      renderText(text, p.f, spans, p.cont, tokens);
      box.appendChild(text);
      if (p.mm) {
        box.appendChild(el("div", "note", "media, in placeholder order:"));
        for (const ref of p.mm) box.appendChild(mediaNode(ref));
      }
      return box;
    }
    box.appendChild(el("div", "label", "final input: " + p.f.length + " chat messages"));
    const text = el("div", "text");
    let next = 0;
    p.f.forEach(function (message, index) {
      const row = el("div", "msg");
      row.appendChild(el("span", "role role-" + String(message.role).replace(/[^A-Za-z0-9_-]/g, ""), message.role));
      const content = message.content;
      if (typeof content === "string") {
        renderText(row, content, spans.filter(function (s) { return s[3] === index; }), null, tokens);
      } else if (Array.isArray(content)) {
        for (const part of content) {
          if (MEDIA_TYPES[part.type]) row.appendChild(mediaNode(p.refs[next++]));
          else if (part.type === "text") renderText(row, part.text, [], null, tokens);
          else row.appendChild(el("span", "quote", JSON.stringify(part)));
        }
      } else if (content !== null && content !== undefined) row.appendChild(el("span", "quote", JSON.stringify(content)));
      const extra = Object.keys(message).filter(function (key) { return key !== "role" && key !== "content"; });
      for (const key of extra) row.appendChild(el("div", "note", key + ": " + JSON.stringify(message[key])));
      text.appendChild(row);
    });
    box.appendChild(text);
    return box;
  }

  function promptTitle(p) {
    if (p.mode === "calib") return p.label !== undefined ? "calibration, label " + p.label : "calibration";
    if (p.mode === "ppl") return "label " + p.label;
    if (p.turn !== undefined) return "turn " + p.turn;
    return "prompt (" + p.mode + ")";
  }

  function renderPrompt(p) {
    const tokens = TOKENS[p.m];
    const card = el("article", "prompt");
    card.dataset.mode = p.mode;
    card.appendChild(el("h4", null, promptTitle(p)));
    card.appendChild(el("div", "meta", p.shots.length ? "shots: rows " + p.shots.join(", ") + " of the train split" : "shots: none"));
    if (p.flags) card.appendChild(el("div", "note warn", p.flags.join(" · ")));
    if (p.gold !== undefined) {
      const gold = el("div", "goldline");
      gold.appendChild(el("b", null, "gold: "));
      renderText(gold, p.gold, [], null, null);
      card.appendChild(gold);
    }
    const pl = el("details", "pl");
    pl.appendChild(el("summary", null, "template output (PromptList)"));
    pl.appendChild(renderPromptList(p, tokens));
    card.appendChild(pl);
    card.appendChild(renderFinal(p, tokens));
    if (p.spx) card.appendChild(el("div", "note", "pieces not coloured: " + p.spx));
    if (p.tok) {
      card.appendChild(el("div", "tokens", "tokens: " + p.tok.total + " · system " + p.tok.system + " · shots " +
        (p.tok.shots.length ? p.tok.shots.join(", ") : "none") + " · query and template " + p.tok.rest));
    }
    const rec = el("details", "rec");
    rec.appendChild(el("summary", null, "render record"));
    rec.addEventListener("toggle", function () {
      if (!rec.open || rec.querySelector("pre")) return;
      const record = Object.assign({}, p.rec, { prompt: p.f });
      rec.appendChild(el("pre", "record", JSON.stringify(record, null, 2)));
    });
    card.appendChild(rec);
    return card;
  }

  // ---- rows: a dataset's test row, with each model's prompts side by side ------------------------
  const groups = [];
  (function () {
    const byKey = new Map();
    for (const p of DATA.prompts) {
      const key = p.d + ":" + p.i;
      let group = byKey.get(key);
      if (!group) {
        group = { d: p.d, i: p.i, prompts: [], models: [], node: null, text: null };
        byKey.set(key, group);
        groups.push(group);
      }
      group.prompts.push(p);
      if (group.models.indexOf(p.m) < 0) group.models.push(p.m);
    }
    groups.sort(function (a, b) { return a.d - b.d || a.i - b.i; });
    for (const group of groups) group.models.sort(function (a, b) { return a - b; });
  })();

  function groupGold(group) {
    const first = group.prompts.find(function (p) { return p.gold !== undefined; });
    return first ? first.gold : null;
  }

  function buildBody(group) {
    const cols = el("div", "cols");
    for (const m of group.models) {
      const model = DATA.models[m];
      const col = el("section", "col");
      col.dataset.model = model.name;
      col.hidden = !state.models.has(m);
      const head = el("h3", null, model.name);
      head.appendChild(el("span", "kind", model.kind));
      col.appendChild(head);
      for (const p of group.prompts) if (p.m === m) col.appendChild(renderPrompt(p));
      cols.appendChild(col);
    }
    return cols;
  }

  function groupNode(group) {
    if (group.node) return group.node;
    const row = el("details", "row");
    row.dataset.dataset = DATA.datasets[group.d].name;
    row.dataset.index = String(group.i);
    const summary = el("summary");
    summary.appendChild(el("span", "where", DATA.datasets[group.d].name + " · row " + group.i));
    const gold = groupGold(group);
    if (gold !== null) summary.appendChild(el("span", "gold", "gold: " + (gold.length > 80 ? gold.slice(0, 79) + "…" : gold)));
    summary.appendChild(el("span", "badge", DATA.datasets[group.d].mode + " · " + group.models.length + " model(s) · " +
      group.prompts.length + " prompt(s)"));
    row.appendChild(summary);
    row.addEventListener("toggle", function () {
      if (row.open && row.childNodes.length === 1) row.appendChild(buildBody(group));
    });
    group.node = row;
    return row;
  }

  // ---- filters ----------------------------------------------------------------------------------
  const state = { dataset: -1, models: new Set(DATA.models.map(function (_, m) { return m; })), rows: null, text: "" };

  function promptText(p) {
    if (p._text === undefined) {
      const bits = [typeof p.f === "string" ? p.f : JSON.stringify(p.f), p.gold || "", p.label || ""];
      for (const item of p.pl) {
        if (item[0] === "t") bits.push(DATA.texts[item[1]]);
        else if (item[0] === "r" && item[2] !== null) bits.push(DATA.texts[item[2]]);
      }
      p._text = bits.join("\n").toLowerCase();
    }
    return p._text;
  }

  function matches(group) {
    if (state.dataset >= 0 && group.d !== state.dataset) return false;
    if (state.rows && !state.rows.has(group.i)) return false;
    const shown = group.prompts.filter(function (p) { return state.models.has(p.m); });
    if (!shown.length) return false;
    return !state.text || shown.some(function (p) { return promptText(p).indexOf(state.text) >= 0; });
  }

  function parseRows(spec) {
    const rows = new Set();
    for (const part of spec.split(",")) {
      const bit = part.trim();
      if (!bit) continue;
      const range = /^(\d+)\s*-\s*(\d+)$/.exec(bit);
      if (range) {
        const low = Number(range[1]), high = Number(range[2]);
        if (high < low || high - low > 1e6) return null;
        for (let i = low; i <= high; i++) rows.add(i);
      } else if (/^\d+$/.test(bit)) rows.add(Number(bit));
      else return null;
    }
    return rows.size ? rows : null;
  }

  let visible = [];
  let shown = 0;
  const list = el("main");
  list.id = "pk-rows";
  const more = el("button", "more", "show more rows");

  function showMore() {
    const stop = Math.min(shown + PAGE, visible.length);
    for (; shown < stop; shown++) list.insertBefore(groupNode(visible[shown]), more);
    more.hidden = shown >= visible.length;
    updateCount();
  }

  function updateCount() {
    document.getElementById("pk-count").textContent = visible.length + " of " + groups.length + " rows match" +
      (visible.length > shown ? " (" + shown + " listed; scroll for more)" : "");
  }

  function apply() {
    for (const group of groups) {
      if (group.node) {
        for (const col of group.node.querySelectorAll("section.col")) {
          col.hidden = !state.models.has(DATA.models.findIndex(function (m) { return m.name === col.dataset.model; }));
        }
      }
    }
    while (list.firstChild !== more) list.removeChild(list.firstChild);
    visible = groups.filter(matches);
    shown = 0;
    showMore();
  }

  // ---- the page --------------------------------------------------------------------------------
  function header() {
    const head = el("header");
    head.appendChild(el("h1", null, DATA.title));
    head.appendChild(el("span", null, "")).id = "pk-summary";
    const controls = el("div");
    controls.id = "pk-controls";

    const dataset = el("select");
    dataset.id = "pk-dataset";
    dataset.appendChild(el("option", null, "all datasets")).value = "-1";
    DATA.datasets.forEach(function (d, n) { dataset.appendChild(el("option", null, d.name)).value = String(n); });
    dataset.addEventListener("change", function () { state.dataset = Number(dataset.value); apply(); });
    controls.appendChild(dataset);

    const models = el("span");
    models.id = "pk-models";
    DATA.models.forEach(function (model, m) {
      const label = el("label");
      const box = el("input");
      box.type = "checkbox";
      box.checked = true;
      box.value = model.name;
      box.addEventListener("change", function () {
        if (box.checked) state.models.add(m); else state.models.delete(m);
        apply();
      });
      label.appendChild(box);
      label.appendChild(document.createTextNode(" " + model.name));
      models.appendChild(label);
    });
    controls.appendChild(models);

    const rows = el("input");
    rows.type = "text";
    rows.id = "pk-rows-filter";
    rows.placeholder = "rows, e.g. 0-9,12";
    rows.addEventListener("input", function () {
      const spec = rows.value.trim();
      const parsed = spec ? parseRows(spec) : null;
      rows.classList.toggle("invalid", Boolean(spec) && parsed === null);
      state.rows = parsed;
      apply();
    });
    controls.appendChild(rows);

    const search = el("input");
    search.type = "search";
    search.id = "pk-search";
    search.placeholder = "search prompts, gold answers";
    let timer = null;
    search.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { state.text = search.value.toLowerCase(); apply(); }, 120);
    });
    controls.appendChild(search);
    controls.appendChild(el("span", null, "")).id = "pk-count";
    head.appendChild(controls);

    const legend = el("div");
    legend.id = "pk-legend";
    for (const piece of PIECES) legend.appendChild(el("span", "sp " + piece[0], piece[1]));
    legend.appendChild(el("span", "mark tok", "<|special|>"));
    legend.appendChild(el("span", "mark", "⏎ newline · ··· trailing spaces · → tab · "));
    legend.appendChild(el("span", "zw", "U+200B"));
    legend.appendChild(el("span", "mark", "invisible character ·"));
    legend.appendChild(el("span", "mark cont", "ppl: scored continuation"));
    legend.appendChild(el("span", "sp k-answer slot", "gen ▸"));
    legend.appendChild(el("span", "mark", "generation starts"));
    head.appendChild(legend);
    return head;
  }

  document.body.appendChild(header());
  document.getElementById("pk-summary").textContent = DATA.prompts.length + " prompts · " + DATA.datasets.length +
    " dataset(s) · " + DATA.models.length + " model(s)";
  list.appendChild(more);
  more.addEventListener("click", showMore);
  document.body.appendChild(list);
  if ("IntersectionObserver" in window) {
    new IntersectionObserver(function (seen) {
      if (seen[0].isIntersecting && shown < visible.length) showMore();
    }, { rootMargin: "400px" }).observe(more);
  }
  apply();
  if (visible.length) groupNode(visible[0]).open = true;
  document.body.dataset.ready = "true";
})();
