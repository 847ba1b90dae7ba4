// ReDoc's sidebar footer loads its logo from cdn.redoc.ly; offline that is a failed request and
// a console error on every visit. The logo is decoration: its source is simply never set, by
// attribute or by property.
(function () {
  const outside = (name, value) =>
    name === "src" && String(value).startsWith("https://cdn.redoc.ly/");
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLImageElement && outside(name, value)) return;
    return setAttribute.call(this, name, value);
  };
  const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    ...src,
    set(value) {
      if (!outside("src", value)) src.set.call(this, value);
    },
  });
})();
