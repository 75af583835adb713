/**
 * The certificate page's share dialog and the print view's *Print* button (docs/web-pages.md#sharing). Everything
 * they show is rendered on the server (the QR code included); this opens and closes the dialog — a modal `<dialog>`:
 * focus moves into it, Escape or *Close* closes it, focus returns to *Share* — copies its values, saying "Copied"
 * on the button and in the dialog's status region, and prints. Without it the page still offers the print view.
 */
const share = document.getElementById("share-dialog") as HTMLDialogElement | null;
const opener = document.getElementById("share-open");
const copied = document.getElementById("share-copied");

if (share !== null && opener !== null) {
  opener.hidden = false;
  opener.addEventListener("click", () => {
    if (copied !== null) copied.textContent = "";
    share.showModal();
  });
  document.getElementById("share-close")?.addEventListener("click", () => share.close());
  // A click on the backdrop lands on the dialog element itself.
  share.addEventListener("click", (e) => e.target === share && share.close());
  share.addEventListener("close", () => opener.focus());
}

/** Puts `text` on the clipboard; where the Clipboard API is missing or refused, copies the field's selection. */
async function copyText(field: HTMLInputElement | HTMLTextAreaElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(field.value);
    return true;
  } catch {
    field.select();
    return document.execCommand("copy");
  }
}

const resets = new Map<HTMLElement, number>();
for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
  const field = document.getElementById(button.dataset["copy"] ?? "") as HTMLInputElement | HTMLTextAreaElement | null;
  const word = button.querySelector(".copy-word");
  if (field === null || word === null) continue;
  const label = document.querySelector(`label[for="${field.id}"]`)?.textContent ?? "Value";
  button.addEventListener("click", () => {
    void copyText(field).then((ok) => {
      word.textContent = ok ? "Copied" : "Copy failed";
      button.dataset["copied"] = String(ok);
      if (copied !== null) copied.textContent = ok ? `${label} copied.` : `${label}: select it and copy it yourself.`;
      clearTimeout(resets.get(button));
      resets.set(
        button,
        window.setTimeout(() => {
          word.textContent = "Copy";
          delete button.dataset["copied"];
        }, 2500),
      );
    });
  });
}

const printButton = document.getElementById("print-button");
if (printButton !== null) {
  printButton.hidden = false;
  printButton.addEventListener("click", () => window.print());
}
