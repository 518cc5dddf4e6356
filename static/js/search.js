/* The search page: Pagefind's index, loaded from this site only when this page is open.
   A result on a page with anchored headings (the law's sections, the exempt entries)
   links to the best-matching parts of it, each as a result of its own. A query naming a
   portal page's words (content/search.yaml) shows that page first; the hidden lines of
   search words the pages carry never show in an excerpt. */

const form = document.querySelector("form[data-pagefind]");
const input = document.getElementById("search-query");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");
const fallback = document.getElementById("search-fallback"); // the ways in by hand
const shortcuts = [...document.querySelectorAll("#search-shortcuts > li")];
const PAGES = 8; // pages fetched per query
const PARTS = 3; // anchored parts shown per page
const WORDS = 30; // words in an excerpt, as Pagefind's own
const plain = (word) => word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
// Each hidden line of search words, as the words Pagefind indexed.
const hiddenLines = JSON.parse(fallback.dataset.hiddenWords || "[]")
  .map((line) => line.split(/\s+/).map(plain).filter(Boolean));

// On a page in another language, its words (search.html's data-words); else these.
const say = Object.assign({
  one: "1 result for “{q}”", many: "{n} results for “{q}”",
  none: "Nothing found for “{q}”. Try another word, or start from one of these pages:",
  failed: "Search could not start in this browser.",
  instead: "You can find every topic from these pages:",
}, JSON.parse(form.dataset.words || "{}"));

let pagefind = null;
let latest = 0;

/* The positions of a page's words that belong to its hidden lines of search words. */
function hiddenIn(words) {
  const hidden = new Set();
  const text = words.map(plain);
  for (const line of hiddenLines) {
    for (let i = 0; i + line.length <= text.length; i++) {
      if (line.every((word, j) => text[i + j] === word)) line.forEach((_, j) => hidden.add(i + j));
    }
  }
  return hidden;
}

/* An excerpt of the words from..to of a page, around its best match, without the hidden
   words (a part found only by them starts at its beginning); the words found are marked. */
function excerpt(data, part, from, to) {
  const words = data.content.split(/[\r\n\s]+/g);
  data.hidden = data.hidden || hiddenIn(words);
  const found = (part.weighted_locations || [])
    .filter((l) => !data.hidden.has(l.location) && l.location >= from && l.location < to)
    .sort((a, b) => b.balanced_score - a.balanced_score);
  const marked = new Set(found.map((l) => l.location));
  const shown = [];
  for (let i = from; i < to; i++) if (!data.hidden.has(i)) shown.push(i);
  const best = found.length ? shown.indexOf(found[0].location) : 0;
  const start = Math.max(0, Math.min(best - 6, shown.length - WORDS));
  const p = document.createElement("p");
  shown.slice(start, start + WORDS).forEach((i, n) => {
    if (n) p.append(" ");
    if (marked.has(i)) {
      const mark = document.createElement("mark");
      mark.textContent = words[i];
      p.append(mark);
    } else {
      p.append(words[i]);
    }
  });
  return p;
}

/* How well one part of a page matches: its best word (a word in its heading weighs most),
   then how many. Summing alone would rank the longest section first for any query. */
function score(part) {
  const scores = (part.weighted_locations || []).map((l) => l.balanced_score);
  return [Math.max(0, ...scores), scores.length];
}

function byScore(a, b) {
  const [x, y] = [score(a), score(b)];
  return y[0] - x[0] || y[1] - x[1];
}

/* [url, title, page title or "", excerpt] for the best parts of one page: a part under a
   heading with an id links to it; the part before the first such heading is the page. */
function entries(data) {
  const title = data.meta.title;
  const starts = data.anchors.filter((a) => /h\d/i.test(a.element) && a.id && (a.text || "").trim())
    .map((a) => a.location).sort((a, b) => a - b);
  const end = (from) => starts.find((at) => at > from) ?? Number.MAX_SAFE_INTEGER;
  return data.sub_results.sort(byScore).slice(0, PARTS).map((part) => {
    const from = part.anchor ? part.anchor.location : 0;
    const to = Math.min(end(from), data.content.split(/[\r\n\s]+/g).length);
    const text = excerpt(data, part, from, to);
    return part.url.includes("#") ? [part.url, part.title, title, text] : [data.url, title, "", text];
  });
}

function item([url, title, page, text]) {
  const li = document.createElement("li");
  const heading = document.createElement("h2");
  const link = document.createElement("a");
  link.href = url;
  link.textContent = title;
  heading.append(link);
  li.append(heading);
  if (page) {
    const where = document.createElement("p");
    where.className = "search-where";
    where.textContent = page;
    li.append(where);
  }
  li.append(text);
  return li;
}

/* The portal pages whose words are in the query (content/search.yaml), as results. */
function answers(query) {
  const said = query.toLowerCase();
  const words = said.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return shortcuts.filter((li) => li.dataset.words.split("|")
    .some((w) => (w.includes(" ") ? said.includes(w) : words.includes(w))))
    .map((li) => li.cloneNode(true));
}

async function run(query) {
  const ticket = ++latest;
  query = query.trim();
  if (!query) {
    list.replaceChildren();
    status.textContent = "";
    return;
  }
  const search = await pagefind.search(query);
  const pages = await Promise.all(search.results.slice(0, PAGES).map((r) => r.data()));
  if (ticket !== latest) return; // a newer query has started meanwhile
  const shown = [...answers(query), ...pages.flatMap(entries).map(item)];
  list.replaceChildren(...shown);
  const said = shown.length ? say[shown.length === 1 ? "one" : "many"] : say.none;
  status.textContent = said.replace("{n}", shown.length).replace("{q}", query);
  fallback.hidden = shown.length > 0;
}

function failed() {
  form.hidden = true;
  status.textContent = say.failed;
  document.getElementById("search-while").textContent = say.instead;
  fallback.hidden = false;
}

async function start() {
  try {
    pagefind = await import(form.dataset.pagefind);
    await pagefind.init();
  } catch {
    failed();
    return;
  }
  form.hidden = false;
  fallback.hidden = true;
  // Loaded: "while the search loads" is over; a search with no results says it itself.
  document.getElementById("search-while").hidden = true;
  status.textContent = "";
  const query = new URLSearchParams(location.search).get("q") || "";
  input.value = query;
  let timer = 0;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => run(input.value), 250);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    const url = new URL(location.href);
    url.searchParams.set("q", input.value.trim());
    history.replaceState(null, "", url);
    run(input.value).catch(failed);
  });
  if (query) await run(query);
}

start().catch(failed);
