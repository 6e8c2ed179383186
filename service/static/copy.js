// "Copy citation" buttons put their full citation (data-cite) on the clipboard; the page works without this.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.copy-cite");
  if (!button) return;
  const text = button.dataset.cite;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard API (a page served over plain HTTP from another machine): copy a selection instead.
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  button.textContent = "Copied";
  button.setAttribute("aria-live", "polite");
});
