;; The site check's link scanner (see links.ts, which owns the memory layout and reads the results).
;;
;; Why WebAssembly: the scan runs once per page over every byte of every HTML page, in each thread
;; that unpacks. Written in JavaScript, V8 spent as much CPU compiling it (each thread anew, and
;; again each time a rarely taken branch was first reached) as running it, and ran a fresh
;; thread's first pages at a tenth of its final speed. This module is compiled at once, runs at
;; full speed from the first page, and finds each `=` 16 bytes at a time.
;;
;; Memory (bases given by the caller, all byte addresses), after the module's own first 128
;; bytes: the table of distinct links (ROW_BYTES each), the open-addressing slots (one i32 each: row + 1, 0 when empty), the page being read,
;; and a scratch area (a site path to hash). Positions in a page are relative to its base.
;;
;; A link value is what follows the attribute name `href` or `src`, in any case, with whitespace
;; before it (`data-src` and `xhref` are not links), then optional whitespace, `=` and optional
;; whitespace: quoted, up to its closing quote within MAX_VALUE_BYTES; or unquoted, up to
;; whitespace or `>`. It counts only inside a start tag: going back from the name, the nearest `<`
;; or `>` must be a `<` that an ASCII letter (a tag name) follows. So text that only looks like an
;; attribute is no link: an HTML sample in a code block (`<code>&lt;a href="/about"&gt;`: a `>`
;; first), prose, `</a href=x>`, `<!...`, `<?...`, a page's start before any tag. Known limits of
;; looking no further back: a `>` (or `<`) inside an earlier quoted value of the same tag decides
;; instead (`<a title="a > b" href="/x">` hides the link), and links inside comments
;; (`<!-- <a href="/x"> -->`) count. Its two hashes (FNV-1a and a multiply-xor, a relative link's
;; seeded with its page's folder) tell distinct links apart; a row keeps two hashes of the site path
;; it leads to.
(module
  (import "links" "resolve" (func $resolve (param i32 i32) (result i32)))
  (import "links" "order" (func $order (param i32 i32) (result i32)))
  (memory (export "memory") 1)

  ;; What $next found: where the value starts and ends (page positions), whether it is a root path,
  ;; and its two hashes.
  (global $start (export "start") (mut i32) (i32.const 0))
  (global $end (export "end") (mut i32) (i32.const 0))
  (global $root (mut i32) (i32.const 0))
  (global $hash (export "hash") (mut i32) (i32.const 0))
  (global $check (export "check") (mut i32) (i32.const 0))
  ;; Whether the page is in a start tag before position $tagAt (the start of the last attribute name
  ;; judged): $tagOpen, 1 when the nearest `<` or `>` before it opens a start tag. 0: nothing known.
  ;; The name judged next reads back only to there, so a page is read back once in all, however many
  ;; attributes a tag has. A search from a page's start forgets it (that is a new page, or the same
  ;; one again); links.ts sets it to 0 before it searches a new page from anywhere else.
  (global $tagAt (export "tagAt") (mut i32) (i32.const 0))
  (global $tagOpen (mut i32) (i32.const 0))
  ;; What $hashBytes made.
  (global $pathHash (export "pathHash") (mut i32) (i32.const 0))
  (global $pathCheck (export "pathCheck") (mut i32) (i32.const 0))
  ;; The distinct links kept so far.
  (global $rows (export "rows") (mut i32) (i32.const 0))

  ;; A row: ten i32s, as links.ts reads them.
  ;;   0 hash, 4 check, 8 length, 12 folder (-1: a root path), 16 count, 20 page, 24 offset,
  ;;   28 internal (1: leads into the site), 32 target hash, 36 target check
  (global $ROW_BYTES i32 (i32.const 40))
  ;; The module's own bytes at the start of the memory (see observe); the caller's regions follow.
  (global $ORDER_CACHE_BYTES i32 (i32.const 128))
  ;; Attribute values are short; a longer run is not one (a broken page, or a script).
  (global $MAX_VALUE_BYTES i32 (i32.const 2048))

  ;; HTML's whitespace: tab, line feed, form feed, carriage return, space: the bits of 0x80001b
  ;; at the byte less 9 (9, 10, 12, 13 and 32 less 9 are 0, 1, 3, 4 and 23).
  (func $isSpace (param $byte i32) (result i32)
    (local.set $byte (i32.sub (local.get $byte) (i32.const 9)))
    (i32.and (i32.lt_u (local.get $byte) (i32.const 24)) (i32.shr_u (i32.const 0x80001b) (local.get $byte))))

  ;; The next href/src value of the page at $base ($length bytes) from position $from on: sets
  ;; $start, $end, $root, $hash and $check and returns $end (where the search goes on), or -1.
  ;; Bytes past the page's end may be read into a vector (the caller leaves 16 bytes of room), but
  ;; an `=` there is never taken.
  (func $next (export "next") (param $base i32) (param $length i32) (param $from i32) (param $folderHash i32) (result i32)
    (local $block i32) (local $mask i32) (local $at i32) (local $address i32) (local $last i32) (local $name i32)
    (local $back i32) (local $readTo i32) (local $open i32)
    (local $quote i32) (local $quoted i32) (local $start i32) (local $limit i32) (local $end i32) (local $byte i32)
    (local $hash i32) (local $check i32) (local $quotes i32) (local $word i32) (local $stop i32)
    (if (i32.eqz (local.get $from)) (then (global.set $tagAt (i32.const 0))))
    (local.set $block (local.get $from))
    (block $none
      (loop $blocks
        (br_if $none (i32.ge_s (local.get $block) (local.get $length)))
        ;; One bit for each `=` among the next 16 bytes, none for those past the page's end.
        (local.set $mask
          (i8x16.bitmask (i8x16.eq
            (v128.load (i32.add (local.get $base) (local.get $block)))
            (i8x16.splat (i32.const 0x3d)))))
        (if (i32.lt_s (i32.sub (local.get $length) (local.get $block)) (i32.const 16))
          (then
            (local.set $mask (i32.and (local.get $mask)
              (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $length) (local.get $block))) (i32.const 1))))))
        (block $blockDone
          (loop $equals
            (br_if $blockDone (i32.eqz (local.get $mask)))
            (local.set $at (i32.add (local.get $block) (i32.ctz (local.get $mask))))
            (local.set $mask (i32.and (local.get $mask) (i32.sub (local.get $mask) (i32.const 1))))
            (block $notALink
              ;; ` src=` is the shortest start of a value.
              (br_if $notALink (i32.lt_s (local.get $at) (i32.const 4)))
              ;; The name before the `=` (past any whitespace): `href` or `src` in any case, as an
              ;; attribute of its own (whitespace before it): `data-src=` and `xhref=` are not links.
              (local.set $name (i32.sub (local.get $at) (i32.const 1)))
              (local.set $address (i32.add (local.get $base) (local.get $name)))
              ;; (A letter's byte with 0x20 set is its lower case; no other byte gives a letter's.
              ;; With 5 set too, only b, c, f and g give 0x67; whitespace gives 0x2d or less. No
              ;; loop on the way of every `=`: the whitespace's is entered only when there is some.)
              (local.set $last (i32.or (i32.load8_u (local.get $address)) (i32.const 0x20)))
              (if (i32.ne (i32.or (local.get $last) (i32.const 5)) (i32.const 0x67))
                (then
                  (br_if $notALink (i32.gt_u (local.get $last) (i32.const 0x2d)))
                  (loop $spacesBefore
                    (br_if $notALink (i32.eqz (call $isSpace (i32.load8_u (local.get $address)))))
                    (local.set $name (i32.sub (local.get $name) (i32.const 1)))
                    (br_if $notALink (i32.lt_s (local.get $name) (i32.const 3)))
                    (local.set $address (i32.sub (local.get $address) (i32.const 1)))
                    (local.set $last (i32.or (i32.load8_u (local.get $address)) (i32.const 0x20)))
                    (br_if $spacesBefore (i32.le_u (local.get $last) (i32.const 0x2d))))))
              (if (i32.eq (local.get $last) (i32.const 0x66))
                (then
                  (br_if $notALink (i32.lt_s (local.get $name) (i32.const 4)))
                  (br_if $notALink (i32.ne (i32.or (i32.load8_u (i32.sub (local.get $address) (i32.const 1))) (i32.const 0x20)) (i32.const 0x65)))
                  (br_if $notALink (i32.ne (i32.or (i32.load8_u (i32.sub (local.get $address) (i32.const 2))) (i32.const 0x20)) (i32.const 0x72)))
                  (br_if $notALink (i32.ne (i32.or (i32.load8_u (i32.sub (local.get $address) (i32.const 3))) (i32.const 0x20)) (i32.const 0x68)))
                  (local.set $name (i32.sub (local.get $name) (i32.const 3))))
                (else
                  (br_if $notALink (i32.ne (local.get $last) (i32.const 0x63)))
                  (br_if $notALink (i32.ne (i32.or (i32.load8_u (i32.sub (local.get $address) (i32.const 1))) (i32.const 0x20)) (i32.const 0x72)))
                  (br_if $notALink (i32.ne (i32.or (i32.load8_u (i32.sub (local.get $address) (i32.const 2))) (i32.const 0x20)) (i32.const 0x73)))
                  (local.set $name (i32.sub (local.get $name) (i32.const 2)))))
              ;; (Inline, as it is on the way of every link: see $isSpace.)
              (local.set $byte (i32.sub (i32.load8_u (i32.sub (i32.add (local.get $base) (local.get $name)) (i32.const 1))) (i32.const 9)))
              (br_if $notALink (i32.eqz (i32.and (i32.lt_u (local.get $byte) (i32.const 24)) (i32.shr_u (i32.const 0x80001b) (local.get $byte)))))
              ;; Only in a start tag: the nearest `<` or `>` before the name is a `<` that a letter
              ;; follows (not `</`, `<!`, `<?`; a `>` first, or no `<` at all, is text). Read back
              ;; byte by byte, but only to the name judged last (see $tagAt); a name before that one
              ;; (the caller went back) is read back to the page's start.
              (local.set $back (local.get $name))
              (local.set $readTo (global.get $tagAt))
              (if (i32.gt_s (local.get $readTo) (local.get $name)) (then (local.set $readTo (i32.const 0))))
              (local.set $open (select (global.get $tagOpen) (i32.const 0) (local.get $readTo)))
              (block $decided
                (loop $backward
                  (br_if $decided (i32.le_s (local.get $back) (local.get $readTo)))
                  (local.set $back (i32.sub (local.get $back) (i32.const 1)))
                  (local.set $address (i32.add (local.get $base) (local.get $back)))
                  (local.set $byte (i32.load8_u (local.get $address)))
                  ;; (`<` and `>` are the only bytes that are `>` with bit 1 set.)
                  (br_if $backward (i32.ne (i32.or (local.get $byte) (i32.const 2)) (i32.const 0x3e)))
                  (local.set $open
                    (i32.and
                      (i32.eq (local.get $byte) (i32.const 0x3c))
                      (i32.lt_u
                        (i32.sub (i32.or (i32.load8_u offset=1 (local.get $address)) (i32.const 0x20)) (i32.const 0x61))
                        (i32.const 26))))))
              (global.set $tagAt (local.get $name))
              (global.set $tagOpen (local.get $open))
              (br_if $notALink (i32.eqz (local.get $open)))
              ;; The value, past any whitespace after the `=`; a page that ends first has none.
              (local.set $start (i32.add (local.get $at) (i32.const 1)))
              (block $valueAt
                (br_if $notALink (i32.eq (local.get $start) (local.get $length)))
                (local.set $quote (i32.load8_u (i32.add (local.get $base) (local.get $start))))
                (if (i32.le_u (local.get $quote) (i32.const 0x20))
                  (then
                    (loop $spacesAfter
                      (br_if $valueAt (i32.eqz (call $isSpace (local.get $quote))))
                      (local.set $start (i32.add (local.get $start) (i32.const 1)))
                      (br_if $notALink (i32.eq (local.get $start) (local.get $length)))
                      (local.set $quote (i32.load8_u (i32.add (local.get $base) (local.get $start))))
                      (br_if $spacesAfter (i32.le_u (local.get $quote) (i32.const 0x20)))))))
              (local.set $quoted (i32.or (i32.eq (local.get $quote) (i32.const 0x22)) (i32.eq (local.get $quote) (i32.const 0x27))))
              (local.set $start (i32.add (local.get $start) (local.get $quoted)))
              (br_if $notALink (i32.eq (local.get $start) (local.get $length)))
              ;; A root path is the same link from every page; a relative one, from every page of a folder.
              (global.set $root
                (i32.and
                  (i32.eq (i32.load8_u (i32.add (local.get $base) (local.get $start))) (i32.const 0x2f))
                  (i32.or
                    (i32.eq (i32.add (local.get $start) (i32.const 1)) (local.get $length))
                    (i32.ne (i32.load8_u offset=1 (i32.add (local.get $base) (local.get $start))) (i32.const 0x2f)))))
              (local.set $hash (select (i32.const 0x2f1b3c4d) (local.get $folderHash) (global.get $root)))
              (local.set $check (i32.const 0x5bd1e995))
              (local.set $limit (i32.add (i32.add (local.get $start) (global.get $MAX_VALUE_BYTES)) (i32.const 1)))
              (if (i32.lt_s (local.get $length) (local.get $limit)) (then (local.set $limit (local.get $length))))
              ;; Where the value ends: a quoted one at its quote, found 16 bytes at a time; an unquoted
              ;; one at whitespace or `>`.
              (local.set $end (local.get $start))
              (if (local.get $quoted)
                (then
                  (block $found
                    (loop $quoteSearch
                      (br_if $found (i32.ge_s (local.get $end) (local.get $limit)))
                      (local.set $quotes
                        (i8x16.bitmask (i8x16.eq
                          (v128.load (i32.add (local.get $base) (local.get $end)))
                          (i8x16.splat (local.get $quote)))))
                      (if (local.get $quotes)
                        (then
                          (local.set $end (i32.add (local.get $end) (i32.ctz (local.get $quotes))))
                          (br $found)))
                      (local.set $end (i32.add (local.get $end) (i32.const 16)))
                      (br $quoteSearch)))
                  ;; (A quote found, or the last block read, may lie past the bound: the bound it is.)
                  (if (i32.gt_s (local.get $end) (local.get $limit)) (then (local.set $end (local.get $limit)))))
                (else
                  (block $valueEnd
                    (loop $value
                      (br_if $valueEnd (i32.ge_s (local.get $end) (local.get $limit)))
                      (local.set $byte (i32.load8_u (i32.add (local.get $base) (local.get $end))))
                      (br_if $valueEnd (i32.or (call $isSpace (local.get $byte)) (i32.eq (local.get $byte) (i32.const 0x3e))))
                      (local.set $end (i32.add (local.get $end) (i32.const 1)))
                      (br $value)))))
              ;; Its two hashes, four bytes at a time, then byte by byte.
              (local.set $address (i32.add (local.get $base) (local.get $start)))
              (local.set $stop (i32.add (local.get $base) (local.get $end)))
              (block $words
                (loop $word4
                  (br_if $words (i32.gt_u (i32.add (local.get $address) (i32.const 4)) (local.get $stop)))
                  (local.set $word (i32.load (local.get $address)))
                  (local.set $hash (i32.mul (i32.xor (local.get $hash) (local.get $word)) (i32.const 0x01000193)))
                  (local.set $check (i32.mul (i32.xor (local.get $check) (local.get $word)) (i32.const 0x5bd1e995)))
                  (local.set $address (i32.add (local.get $address) (i32.const 4)))
                  (br $word4)))
              (block $bytesDone
                (loop $tail
                  (br_if $bytesDone (i32.ge_u (local.get $address) (local.get $stop)))
                  (local.set $byte (i32.load8_u (local.get $address)))
                  (local.set $hash (i32.mul (i32.xor (local.get $hash) (local.get $byte)) (i32.const 0x01000193)))
                  (local.set $check (i32.mul (i32.xor (local.get $check) (local.get $byte)) (i32.const 0x5bd1e995)))
                  (local.set $address (i32.add (local.get $address) (i32.const 1)))
                  (br $tail)))
              ;; A quoted value must close within the bound; an unquoted one ends there.
              (if (local.get $quoted)
                (then (br_if $notALink (i32.eq (local.get $end) (local.get $limit))))
                (else (br_if $notALink (i32.eq (local.get $end) (local.get $start)))))
              (global.set $start (local.get $start))
              (global.set $end (local.get $end))
              (global.set $hash (i32.xor (local.get $hash) (i32.shr_u (local.get $hash) (i32.const 15))))
              (global.set $check (local.get $check))
              (return (local.get $end)))
            (br $equals)))
        (local.set $block (i32.add (local.get $block) (i32.const 16)))
        (br $blocks)))
    (i32.const -1))

  ;; Two independent hashes of a site path's bytes ($length at $address) into $pathHash and
  ;; $pathCheck: FNV-1a, and a multiply-xor with another seed and prime.
  (func $hashBytes (export "hashBytes") (param $address i32) (param $length i32)
    (local $hash i32) (local $check i32) (local $stop i32)
    (local.set $hash (i32.const 0x811c9dc5))
    (local.set $check (i32.const 0x3c6ef372))
    (local.set $stop (i32.add (local.get $address) (local.get $length)))
    (block $done
      (loop $bytes
        (br_if $done (i32.ge_u (local.get $address) (local.get $stop)))
        (local.set $hash (i32.mul (i32.xor (local.get $hash) (i32.load8_u (local.get $address))) (i32.const 0x01000193)))
        (local.set $check (i32.mul (i32.xor (local.get $check) (i32.load8_u (local.get $address))) (i32.const 0x5bd1e995)))
        (local.set $address (i32.add (local.get $address) (i32.const 1)))
        (br $bytes)))
    (global.set $pathHash (i32.xor (local.get $hash) (i32.shr_u (local.get $hash) (i32.const 15))))
    (global.set $pathCheck (i32.xor (local.get $check) (i32.shr_u (local.get $check) (i32.const 13)))))

  ;; Where the site path of a root link ends, when the link is a plain root path followed by
  ;; nothing or by a query or a fragment: segments of printable ASCII with nothing to decode (`%`,
  ;; `&`), none empty or starting with a dot. Its site path is then its own bytes from $start + 1
  ;; to there, as links.ts's linkTarget() would resolve it. -1 for any other link.
  (func $plainRootPathEnd (param $base i32) (param $start i32) (param $end i32) (result i32)
    (local $at i32) (local $byte i32)
    (local.set $at (local.get $start))
    (loop $segments
      ;; At a `/`: what follows is the end, a query or a fragment (a trailing slash), or a segment.
      (local.set $at (i32.add (local.get $at) (i32.const 1)))
      (if (i32.eq (local.get $at) (local.get $end)) (then (return (local.get $at))))
      (local.set $byte (i32.load8_u (i32.add (local.get $base) (local.get $at))))
      (if (i32.or (i32.eq (local.get $byte) (i32.const 0x3f)) (i32.eq (local.get $byte) (i32.const 0x23))) (then (return (local.get $at))))
      (if (i32.or (i32.eq (local.get $byte) (i32.const 0x2f)) (i32.eq (local.get $byte) (i32.const 0x2e))) (then (return (i32.const -1))))
      (block $segmentEnd
        (loop $segment
          (br_if $segmentEnd (i32.eq (local.get $byte) (i32.const 0x2f)))
          (if (i32.or (i32.eq (local.get $byte) (i32.const 0x3f)) (i32.eq (local.get $byte) (i32.const 0x23))) (then (return (local.get $at))))
          ;; Escapes and entities need decoding, whitespace trimming, and other bytes a closer look.
          (if (i32.or
                (i32.or (i32.eq (local.get $byte) (i32.const 0x25)) (i32.eq (local.get $byte) (i32.const 0x26)))
                (i32.or (i32.le_u (local.get $byte) (i32.const 0x20)) (i32.ge_u (local.get $byte) (i32.const 0x7f))))
            (then (return (i32.const -1))))
          (local.set $at (i32.add (local.get $at) (i32.const 1)))
          (if (i32.eq (local.get $at) (local.get $end)) (then (return (local.get $at))))
          (local.set $byte (i32.load8_u (i32.add (local.get $base) (local.get $at))))
          (br $segment)))
      (br $segments))
    (unreachable))

  ;; Notes every link of the page at $base from position $from on: a link seen before is counted,
  ;; a new one gets a row with where it leads. Returns -1 when the page is done, or, when the table
  ;; is full (no free row, or slots more than half taken after one more), the position to go on
  ;; from once the caller has made room (the new link is found again there).
  ;; $folder / $folderHash: the page's folder (a relative link's key); $page: its index;
  ;; $inOrder: 0 unless the page comes after every earlier one in page order ($order then tells
  ;; how it compares with a link's first page); $scratch: where $resolve puts a site path for hashing.
  (func (export "observe")
    (param $base i32) (param $length i32) (param $from i32) (param $folder i32) (param $folderHash i32) (param $page i32) (param $inOrder i32)
    (param $table i32) (param $capacity i32) (param $slots i32) (param $mask i32) (param $scratch i32)
    (result i32)
    (local $resume i32) (local $linkFolder i32) (local $length2 i32) (local $slot i32) (local $row i32) (local $rowAt i32)
    (local $pathEnd i32) (local $pathLength i32) (local $internal i32)
    ;; A row's first page, how this page compares with it, and where that is cached.
    (local $known i32) (local $comparison i32) (local $cached i32)
    ;; Pages compared with this one so far: a cache at 0 of 16 entries (the page + 1, 0 when empty;
    ;; how this page compares with it), by the page's index.
    (memory.fill (i32.const 0) (i32.const 0) (global.get $ORDER_CACHE_BYTES))
    (block $pageDone
      (loop $links
        (local.set $resume (local.get $from))
        (local.set $from (call $next (local.get $base) (local.get $length) (local.get $from) (local.get $folderHash)))
        (br_if $pageDone (i32.eq (local.get $from) (i32.const -1)))
        (block $noted
          ;; A link to a place in the same page (`#usage`) is not checked: it is not kept either.
          (br_if $noted (i32.eq (i32.load8_u (i32.add (local.get $base) (global.get $start))) (i32.const 0x23)))
          (local.set $linkFolder (select (i32.const -1) (local.get $folder) (global.get $root)))
          (local.set $length2 (i32.sub (global.get $end) (global.get $start)))
          ;; Links whose 64 bits of hash, length and folder agree are one link (two distinct links of
          ;; a site sharing them is not worth a byte comparison).
          (local.set $slot (i32.and (global.get $hash) (local.get $mask)))
          (block $free
            (loop $probe
              (local.set $row (i32.load (i32.add (local.get $slots) (i32.shl (local.get $slot) (i32.const 2)))))
              (br_if $free (i32.eqz (local.get $row)))
              (local.set $rowAt (i32.add (local.get $table) (i32.mul (i32.sub (local.get $row) (i32.const 1)) (global.get $ROW_BYTES))))
              (if (i32.and
                    (i32.and (i32.eq (i32.load offset=0 (local.get $rowAt)) (global.get $hash)) (i32.eq (i32.load offset=4 (local.get $rowAt)) (global.get $check)))
                    (i32.and (i32.eq (i32.load offset=8 (local.get $rowAt)) (local.get $length2)) (i32.eq (i32.load offset=12 (local.get $rowAt)) (local.get $linkFolder))))
                (then
                  (i32.store offset=16 (local.get $rowAt) (i32.add (i32.load offset=16 (local.get $rowAt)) (i32.const 1)))
                  ;; Pages come in any order: keep the first place in page order, so reports do not
                  ;; vary. (When pages come in order, no page is earlier than the first seen.) How
                  ;; this page and another compare is asked of the caller once (see the cache).
                  (if (i32.eqz (local.get $inOrder))
                    (then
                      (local.set $known (i32.load offset=20 (local.get $rowAt)))
                      (local.set $cached (i32.shl (i32.and (local.get $known) (i32.const 15)) (i32.const 3)))
                      (if (i32.eq (i32.load (local.get $cached)) (i32.add (local.get $known) (i32.const 1)))
                        (then (local.set $comparison (i32.load offset=4 (local.get $cached))))
                        (else
                          (local.set $comparison
                            (if (result i32) (i32.eq (local.get $known) (local.get $page))
                              (then (i32.const 0))
                              (else (call $order (local.get $page) (local.get $known)))))
                          (i32.store (local.get $cached) (i32.add (local.get $known) (i32.const 1)))
                          (i32.store offset=4 (local.get $cached) (local.get $comparison))))
                      (if (i32.or
                            (i32.lt_s (local.get $comparison) (i32.const 0))
                            (i32.and (i32.eqz (local.get $comparison)) (i32.lt_s (global.get $start) (i32.load offset=24 (local.get $rowAt)))))
                        (then
                          (i32.store offset=20 (local.get $rowAt) (local.get $page))
                          (i32.store offset=24 (local.get $rowAt) (global.get $start))))))
                  (br $noted)))
              (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
              (br $probe)))
          ;; A new link: is there room for its row?
          (if (i32.or
                (i32.ge_u (global.get $rows) (local.get $capacity))
                (i32.gt_u (i32.shl (i32.add (global.get $rows) (i32.const 1)) (i32.const 1)) (i32.add (local.get $mask) (i32.const 1))))
            (then (return (local.get $resume))))
          ;; Where it leads: most links of a generated site are plain root paths, whose site path is
          ;; hashed from the page's bytes; the others are resolved by the caller from their text.
          (local.set $internal (i32.const 1))
          (local.set $pathEnd (i32.const -1))
          (if (i32.eq (local.get $linkFolder) (i32.const -1))
            (then (local.set $pathEnd (call $plainRootPathEnd (local.get $base) (global.get $start) (global.get $end)))))
          (if (i32.ne (local.get $pathEnd) (i32.const -1))
            (then
              (call $hashBytes
                (i32.add (i32.add (local.get $base) (global.get $start)) (i32.const 1))
                (i32.sub (i32.sub (local.get $pathEnd) (global.get $start)) (i32.const 1))))
            (else
              (local.set $pathLength (call $resolve (global.get $start) (global.get $end)))
              (if (i32.eq (local.get $pathLength) (i32.const -1))
                (then (local.set $internal (i32.const 0)))
                (else (call $hashBytes (local.get $scratch) (local.get $pathLength))))))
          (local.set $rowAt (i32.add (local.get $table) (i32.mul (global.get $rows) (global.get $ROW_BYTES))))
          (i32.store offset=0 (local.get $rowAt) (global.get $hash))
          (i32.store offset=4 (local.get $rowAt) (global.get $check))
          (i32.store offset=8 (local.get $rowAt) (local.get $length2))
          (i32.store offset=12 (local.get $rowAt) (local.get $linkFolder))
          (i32.store offset=16 (local.get $rowAt) (i32.const 1))
          (i32.store offset=20 (local.get $rowAt) (local.get $page))
          (i32.store offset=24 (local.get $rowAt) (global.get $start))
          (i32.store offset=28 (local.get $rowAt) (local.get $internal))
          (i32.store offset=32 (local.get $rowAt) (select (global.get $pathHash) (i32.const 0) (local.get $internal)))
          (i32.store offset=36 (local.get $rowAt) (select (global.get $pathCheck) (i32.const 0) (local.get $internal)))
          (global.set $rows (i32.add (global.get $rows) (i32.const 1)))
          (i32.store (i32.add (local.get $slots) (i32.shl (local.get $slot) (i32.const 2))) (global.get $rows)))
        (br $links)))
    (i32.const -1))

  ;; Places every row in the (zeroed) slots again, after the slots or the table grew.
  (func (export "rehash") (param $table i32) (param $slots i32) (param $mask i32)
    (local $row i32) (local $slot i32)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $row) (global.get $rows)))
        (local.set $slot (i32.and (i32.load (i32.add (local.get $table) (i32.mul (local.get $row) (global.get $ROW_BYTES)))) (local.get $mask)))
        (block $free
          (loop $probe
            (br_if $free (i32.eqz (i32.load (i32.add (local.get $slots) (i32.shl (local.get $slot) (i32.const 2))))))
            (local.set $slot (i32.and (i32.add (local.get $slot) (i32.const 1)) (local.get $mask)))
            (br $probe)))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (i32.store (i32.add (local.get $slots) (i32.shl (local.get $slot) (i32.const 2))) (local.get $row))
        (br $rows))))
)
