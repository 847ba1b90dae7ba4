// The tenant console: copy a newly issued key (shown once) to the clipboard.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  field.select();
  const copied = () => { button.textContent = "Copied"; };
  const fallback = () => { if (document.execCommand("copy")) copied(); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(copied, fallback);
  } else {
    fallback();
  }
});
