// The rulebook's bar. "Go to rule": a number typed ("702.19b", "rule 702.19b", "CR 702.19b.") jumps to its rule or
// heading on this page, or says there is none (without this script the form asks the server, which redirects).
// The filter box: shows only the rules whose own text holds every word typed, with the rules and headings they
// stand under (those dimmed). Without this script the filter stays hidden and the page reads in full.
const box = document.getElementById("filter");
const bar = document.querySelector(".rulebook-filter");
if (box && bar) {
  const book = document.querySelector(".rulebook");
  const rules = [...book.querySelectorAll(".rule")];
  const sections = [...book.querySelectorAll("section.heading")];
  const count = document.getElementById("filter-count");
  let texts = null;  // each rule's own text, without its subrules, lower case: read on first use
  box.closest("[hidden]").hidden = false;
  // The sticky bar's height (taller on a phone, where it wraps) is the margin an anchored rule or heading keeps
  // above it, so a rule jumped to is never under the bar; the anchor asked for is scrolled to again once known.
  const root = document.documentElement;
  new ResizeObserver(() => root.style.setProperty("--bar-height", `${bar.offsetHeight}px`)).observe(bar);
  root.style.setProperty("--bar-height", `${bar.offsetHeight}px`);
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
  const filter = () => {
    texts ??= rules.map((rule) => [...rule.children].filter((el) => !el.matches(".sub, .go"))
      .map((el) => el.textContent).join(" ").toLowerCase());
    const words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    const filtering = words.length > 0;
    const hits = texts.map((text) => words.every((word) => text.includes(word)));
    const shown = new Set();
    rules.forEach((rule, i) => {
      if (hits[i]) for (let el = rule; el !== book; el = el.parentElement) shown.add(el);
    });
    rules.forEach((rule, i) => {
      rule.hidden = filtering && !shown.has(rule);
      rule.classList.toggle("context", filtering && shown.has(rule) && !hits[i]);
    });
    sections.forEach((section) => { section.hidden = filtering && !shown.has(section); });
    const found = hits.filter(Boolean).length;
    count.textContent = filtering ? `${found} rule${found === 1 ? "" : "s"} match` : "";
  };
  box.addEventListener("input", filter);

  const go = document.getElementById("goto");
  const said = document.getElementById("goto-said");
  let places = null;  // each rule's and heading's anchor, lower case -> its element: made on first use
  const place = (asked) => {
    // The number is the last word typed, without the words before it ("rule", "CR", the source's name), a final
    // full stop or quotes; a number has a digit or a dot, so no other element of the page is ever one.
    const number = (asked.trim().split(/\s+/).pop() || "").replace(/^["'“]+|["'”?.]+$/g, "");
    if (!/[\d.]/.test(number)) return null;
    if (!places) {
      places = new Map();
      document.querySelectorAll(".rulebook [id], .front-matter [id]").forEach((el) => {
        if (!places.has(el.id.toLowerCase())) places.set(el.id.toLowerCase(), el);
      });
    }
    const exact = document.getElementById(number);
    return exact && places.get(number.toLowerCase()) === exact ? exact : places.get(number.toLowerCase()) || null;
  };
  go.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const found = place(go.value);
    if (!found) {
      said.textContent = `No rule or heading is numbered ${go.value.trim()} in this rulebook.`;
      return;
    }
    said.textContent = "";
    if (box.value) {  // a filtered-out rule cannot be shown: the filter is cleared
      box.value = "";
      filter();
    }
    for (let el = found.parentElement; el; el = el.parentElement) if (el.tagName === "DETAILS") el.open = true;
    location.hash = `#${encodeURIComponent(found.id).replace(/%2F/g, "/")}`;
    found.scrollIntoView();
    // Keyboard use goes on from the rule: its number link (a heading's) takes the focus, without scrolling again.
    const num = found.querySelector(":scope > .n > .num, :scope > h2 > .num, :scope > h3 > .num, :scope > h4 > .num, "
                                    + ":scope > h5 > .num, :scope > h6 > .num, :scope > .num");
    (num || found).focus({ preventScroll: true });
  });
  go.addEventListener("input", () => { said.textContent = ""; });
}
