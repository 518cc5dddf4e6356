/* The search page: Pagefind's index, loaded from this site only when this page is open.
   A result on a page with anchored headings (the law's sections, the exempt entries)
   links to the best-matching parts of it, each as a result of its own. */

const form = document.querySelector("form[data-pagefind]");
const input = document.getElementById("search-query");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");
const fallback = document.getElementById("search-fallback"); // the ways in by hand
const needsScript = document.getElementById("search-needs-script");
const PAGES = 8; // pages fetched per query
const PARTS = 3; // anchored parts shown per page

let pagefind = null;
let latest = 0;

/* Pagefind's excerpt is escaped text with <mark> around the words found: keep just those. */
function excerpt(html) {
  const p = document.createElement("p");
  const body = new DOMParser().parseFromString(html, "text/html").body;
  for (const node of body.childNodes) {
    if (node.nodeName === "MARK") {
      const mark = document.createElement("mark");
      mark.textContent = node.textContent;
      p.append(mark);
    } else {
      p.append(node.textContent);
    }
  }
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
  return data.sub_results.sort(byScore).slice(0, PARTS)
    .map((part) => part.url.includes("#")
      ? [part.url, part.title, title, part.excerpt]
      : [data.url, title, "", part.excerpt]);
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
  li.append(excerpt(text));
  return li;
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
  const shown = pages.flatMap(entries);
  list.replaceChildren(...shown.map(item));
  status.textContent = shown.length
    ? `${shown.length} result${shown.length === 1 ? "" : "s"} for “${query}”`
    : `Nothing found for “${query}”. Try another word, or start from one of these pages:`;
  fallback.hidden = shown.length > 0;
}

function failed() {
  form.hidden = true;
  status.textContent = "Search could not start in this browser.";
  fallback.hidden = false;
  needsScript.hidden = false;
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
  needsScript.hidden = true;
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
