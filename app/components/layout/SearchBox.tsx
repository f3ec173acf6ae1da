import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import type { loader as suggestionsLoader } from "~/routes/search-suggestions";
import { SearchIcon, ProductImage, SiteLink } from "~/components/shared";

const DEBOUNCE_MS = 150;

/**
 * A GET form to /finding (works without script). With script, typing shows
 * up to five matches in a dropdown that closes on scroll and hides when the
 * text is empty.
 */
export function SearchBox() {
  const fetcher = useFetcher<typeof suggestionsLoader>();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const listId = useId();
  const timer = useRef<ReturnType<typeof setTimeout>>();

  useEffect(() => {
    clearTimeout(timer.current);
    if (text.trim() === "") {
      setOpen(false);
      return;
    }
    timer.current = setTimeout(() => {
      fetcher.load(`/search-suggestions?q=${encodeURIComponent(text.trim())}`);
      setOpen(true);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer.current);
    // fetcher.load is stable enough for this purpose; depending on fetcher would refetch on every state change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  useEffect(() => {
    if (!open) return;
    const close = () => setOpen(false);
    window.addEventListener("scroll", close, { passive: true });
    return () => window.removeEventListener("scroll", close);
  }, [open]);

  const results = fetcher.data?.results ?? [];
  const showList = open && text.trim() !== "" && results.length > 0;

  return (
    <div className="search">
      <Form discover="none" method="get" action="/finding" role="search" className="search__form" onSubmit={() => setOpen(false)}>
        <label htmlFor="site-search" className="visually-hidden">
          Search products
        </label>
        <input
          id="site-search"
          name="q"
          type="search"
          role="combobox"
          aria-autocomplete="list"
          placeholder="Search grills, heaters, brands…"
          autoComplete="off"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => event.key === "Escape" && setOpen(false)}
          aria-controls={showList ? listId : undefined}
          aria-expanded={showList}
          required
        />
        <button type="submit" className="search__submit" aria-label="Search">
          <SearchIcon />
        </button>
      </Form>
      {showList ? (
        <ul id={listId} className="search__results" aria-label="Matching products">
          {results.map(({ product }) => (
            <li key={product.key}>
              <SiteLink to={product.path} onClick={() => setOpen(false)}>
                <ProductImage src={product.image} alt="" width={48} height={48} />
                <span>{product.title}</span>
              </SiteLink>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
