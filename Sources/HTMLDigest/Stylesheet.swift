/// The one stylesheet of the site (`style.css`): system fonts, light and dark by
/// `prefers-color-scheme`, rows that scroll sideways with snap points, grids that reflow from a
/// phone to a wide screen, visible focus. Nothing is loaded from elsewhere.
enum Stylesheet {
    static let css = """
    :root {
      color-scheme: light dark;
      --bg: #f6f6f3; --fg: #1d1d1b; --muted: #5c5c57; --card: #ffffff; --line: #d9d9d2;
      --link: #0b57b0; --focus: #c2410c; --ph: #e4e4dd; --ph2: #d3d3ca;
      --card-w: 16rem;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #15161a; --fg: #e8e8e3; --muted: #a3a39c; --card: #202228; --line: #34363d;
        --link: #8ab4f8; --focus: #fdba74; --ph: #2a2c33; --ph2: #33363e;
      }
    }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body {
      margin: 0; background: var(--bg); color: var(--fg);
      font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
    }
    a { color: var(--link); }
    a:focus-visible, .row:focus-visible, .skip:focus {
      outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 4px;
    }
    .skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
    .skip:focus { left: .5rem; z-index: 1; }
    header.site {
      display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem 1.5rem;
      padding: .75rem clamp(.75rem, 3vw, 2rem); border-bottom: 1px solid var(--line); background: var(--card);
    }
    .site-title { margin: 0; font-weight: 700; font-size: 1.15rem; }
    .site-title a { color: inherit; text-decoration: none; }
    nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
    nav a[aria-current="page"] { color: var(--fg); font-weight: 700; text-decoration: none; }
    main { padding: 0 clamp(.75rem, 3vw, 2rem) 2rem; max-width: 120rem; margin: 0 auto; }
    h1 { font-size: 1.6rem; margin: 1.25rem 0 .25rem; }
    h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
    .lede, .about, .empty, .count, .kind, .more, footer { color: var(--muted); }
    .count, .kind { font-size: .85rem; font-weight: 400; }
    .problem { color: #b91c1c; font-size: .85rem; }
    .switcher { margin: .5rem 0; }
    .switcher h2 { font-size: 1rem; margin: 0 0 .25rem; }
    .switcher ul { display: flex; flex-wrap: wrap; gap: .25rem .5rem; list-style: none; padding: 0; margin: 0; }
    .switcher a { display: inline-block; padding: .2rem .6rem; border: 1px solid var(--line); border-radius: 999px; text-decoration: none; }
    .switcher a[aria-current="page"] { background: var(--fg); color: var(--bg); border-color: var(--fg); }
    .days-nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; list-style: none; padding: 0; margin: .5rem 0; }
    .pages ul { display: flex; flex-wrap: wrap; gap: .25rem .5rem; list-style: none; padding: 0; margin: .5rem 0; }
    .pages a { display: inline-block; padding: .1rem .5rem; border: 1px solid var(--line); border-radius: 4px; text-decoration: none; }
    .pages a[aria-current="page"] { background: var(--fg); color: var(--bg); border-color: var(--fg); }
    .row {
      display: flex; gap: .75rem; align-items: stretch;
      overflow-x: auto; overscroll-behavior-x: contain; scroll-snap-type: x mandatory;
      padding: .25rem .25rem .75rem; margin: 0 -.25rem;
    }
    .row > .card { flex: 0 0 min(var(--card-w), 80vw); scroll-snap-align: start; }
    /* dense: a wide card (an image answer, an open post) leaves no hole before it. */
    .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(var(--card-w), 100%), 1fr)); grid-auto-flow: dense; gap: .75rem; }
    .card {
      display: flex; flex-direction: column; min-width: 0; background: var(--card);
      border: 1px solid var(--line); border-radius: 10px; overflow: hidden;
    }
    .card .pic { display: block; aspect-ratio: 16 / 9; background: var(--ph); }
    .card .pic img { display: block; width: 100%; height: 100%; object-fit: cover; }
    .card .placeholder {
      background: linear-gradient(135deg, var(--ph) 25%, var(--ph2) 25% 50%, var(--ph) 50% 75%, var(--ph2) 75%) 0 0 / 24px 24px;
    }
    .card.image-answer { grid-column: span 2; }
    .row > .card.image-answer { flex-basis: min(calc(var(--card-w) * 2), 90vw); }
    .card.image-answer .pic { aspect-ratio: 4 / 3; }
    .card.image-answer .pic img { object-fit: contain; }
    .card .title { font-size: 1rem; margin: .6rem .75rem .2rem; line-height: 1.3; overflow-wrap: anywhere; }
    .card .title a { text-decoration: none; }
    .card .title a:hover { text-decoration: underline; }
    .card .meta { margin: 0 .75rem; font-size: .8rem; color: var(--muted); overflow-wrap: anywhere; }
    .card .excerpt { margin: .4rem .75rem .75rem; font-size: .9rem; overflow-wrap: anywhere; }
    .card.text { border-top: 4px solid var(--line); }
    .card.text .title { margin-top: .75rem; font-size: 1.05rem; }
    .card.text .excerpt { font-size: .95rem; line-height: 1.5; }
    .card .more { margin: 0 .75rem .75rem; font-size: .9rem; }
    .card .post { margin: 0 .75rem .75rem; }
    .card .post summary { cursor: pointer; color: var(--link); font-size: .9rem; }
    .card .post .content { max-width: 42rem; font-size: 1rem; line-height: 1.6; overflow-wrap: anywhere; }
    .card .post .content img { max-width: 100%; height: auto; border-radius: 6px; }
    .card .post .content pre { overflow-x: auto; background: var(--bg); padding: .5rem; border-radius: 6px; }
    .card .post .content blockquote { margin-left: 0; padding-left: 1rem; border-left: 3px solid var(--line); color: var(--muted); }
    .media-link::before { content: "↗ "; }
    /* An open post takes the whole row of the grid, its picture stays small. */
    .grid > .card:has(details[open]) { grid-column: 1 / -1; }
    .card:has(details[open]) .pic { max-width: 24rem; }
    .card:has(details[open]) .excerpt { display: none; }
    .card .enclosures { margin: auto .75rem .75rem; padding: 0; list-style: none; font-size: .8rem; overflow-wrap: anywhere; }
    .days, .sources, .tags { padding-left: 1.25rem; }
    .card .meta .tag { text-decoration: none; }
    .card .meta .tag:hover { text-decoration: underline; }
    footer { padding: 1rem clamp(.75rem, 3vw, 2rem); border-top: 1px solid var(--line); font-size: .85rem; }
    @media (max-width: 40rem) { .card.image-answer { grid-column: auto; } }
    @media (prefers-reduced-motion: no-preference) { .row { scroll-behavior: smooth; } }

    """
}
