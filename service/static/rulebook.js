// The rulebook's filter box: shows only the rules whose own text holds every word typed, with the rules and
// headings they stand under (those dimmed). Without this script the box stays hidden and the page reads in full.
const box = document.getElementById("filter");
if (box) {
  const book = document.querySelector(".rulebook");
  const rules = [...book.querySelectorAll(".rule")];
  const sections = [...book.querySelectorAll("section.heading")];
  const count = document.getElementById("filter-count");
  let texts = null;  // each rule's own text, without its subrules, lower case: read on first use
  const bar = box.closest("[hidden]");
  bar.hidden = false;
  // The sticky bar's height (taller on a phone, where it wraps) is the margin an anchored rule or heading keeps
  // above it, so a rule jumped to is never under the bar; the anchor asked for is scrolled to again once known.
  const root = document.documentElement;
  new ResizeObserver(() => root.style.setProperty("--bar-height", `${bar.offsetHeight}px`)).observe(bar);
  root.style.setProperty("--bar-height", `${bar.offsetHeight}px`);
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
  box.addEventListener("input", () => {
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
  });
}
