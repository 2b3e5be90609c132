# fish completion for feeds(1): commands, their options, sort orders and other fixed values, and
# source names read from `feeds sources --json` when completing. Installed as
# share/fish/vendor_completions.d/feeds.fish.

function __feeds_sources
    set -l home
    set -l tokens (commandline -opc)
    for i in (seq (count $tokens))
        if test "$tokens[$i]" = --home; and test $i -lt (count $tokens)
            set home --home $tokens[(math $i + 1)]
        end
    end
    # (In fish single quotes \\ is one backslash: these are the sed scripts of feeds.bash.)
    feeds $home sources --json 2>/dev/null | sed -n 's/.*"name":"\(\([^"\\\\]\|\\\\.\)*\)".*/\1/p' | sed 's/\\\\"/"/g; s/\\\\\\\\/\\\\/g'
end

set -l commands update sources add discover remove import export parse read browse search mark html cache migrate help
complete -c feeds -f
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -l home -r -a "(__fish_complete_directories)" -d 'keep everything under DIR'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -l database -r -d 'a PostgreSQL database the workers share'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -l help -d 'the help'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -l version -d 'the version'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a update -d 'fetch the sources that are due'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a sources -d 'list the sources with their state'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a add -d 'add a source to the sources file'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a discover -d 'print the feeds a web page announces'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a remove -d 'remove a source and its cards'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a import -d 'add the feeds of an OPML file'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a export -d 'print the sources as OPML'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a parse -d 'print the cards of a feed file'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a read -d 'show saved cards as a digest'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a browse -d 'a full-screen reader of saved cards'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a search -d 'full-text search of saved cards'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a mark -d 'mark cards read or unread'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a html -d 'write the digest as HTML pages'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a cache -d 'the image cache'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a migrate -d 'copy the database into PostgreSQL'
complete -c feeds -n "not __fish_seen_subcommand_from $commands" -a help -d 'the help of a command'

# update
complete -c feeds -n '__fish_seen_subcommand_from update' -a '(__feeds_sources)'
complete -c feeds -n '__fish_seen_subcommand_from update' -l all -d 'every enabled source'
complete -c feeds -n '__fish_seen_subcommand_from update' -l worker -d 'lease due sources and update them until stopped'
complete -c feeds -n '__fish_seen_subcommand_from update' -l batch -r -d 'sources a worker leases at once'
complete -c feeds -n '__fish_seen_subcommand_from update' -l exit-when-idle -d 'end the worker once nothing is due'
complete -c feeds -n '__fish_seen_subcommand_from update' -l wait -d 'wait for a running update'
complete -c feeds -n '__fish_seen_subcommand_from update' -l verbose -s v -d 'the summary line'
complete -c feeds -n '__fish_seen_subcommand_from update' -l images -d 'then download images'
complete -c feeds -n '__fish_seen_subcommand_from update' -l jobs -x -d 'transfers at once'
complete -c feeds -n '__fish_seen_subcommand_from update' -l per-host -x -d 'transfers at once to one host'
complete -c feeds -n '__fish_seen_subcommand_from update' -l timeout -x -d 'seconds for one transfer'
complete -c feeds -n '__fish_seen_subcommand_from update' -l connect-timeout -x -d 'seconds to connect'
complete -c feeds -n '__fish_seen_subcommand_from update' -l max-size -x -d 'largest feed'
complete -c feeds -n '__fish_seen_subcommand_from update' -l allow-internal -d 'let requests reach your own network'
# sources
complete -c feeds -n '__fish_seen_subcommand_from sources' -l json -d 'a JSON array'
complete -c feeds -n '__fish_seen_subcommand_from sources' -l cards -x -d 'the N newest cards of each'
# add
complete -c feeds -n '__fish_seen_subcommand_from add' -F
complete -c feeds -n '__fish_seen_subcommand_from add' -l name -x -d 'display name'
complete -c feeds -n '__fish_seen_subcommand_from add' -l tags -x -d 'comma-separated tags'
complete -c feeds -n '__fish_seen_subcommand_from add' -l every -x -d 'refresh interval (90s, 30m, 2h, 1d, 2w)'
complete -c feeds -n '__fish_seen_subcommand_from add' -l search -x -a 'ddg searxng opensearch susi hn' -d 'a saved search'
complete -c feeds -n '__fish_seen_subcommand_from add' -l endpoint -x -d 'the engine address'
complete -c feeds -n '__fish_seen_subcommand_from add' -l preview -d 'page preview images'
complete -c feeds -n '__fish_seen_subcommand_from add' -l as-is -d 'add the URL as written, without fetching it'
complete -c feeds -n '__fish_seen_subcommand_from add discover' -l allow-internal -d 'let redirects reach your own network'
# discover
complete -c feeds -n '__fish_seen_subcommand_from discover' -l json -d 'a JSON array'
# remove
complete -c feeds -n '__fish_seen_subcommand_from remove' -a '(__feeds_sources)'
complete -c feeds -n '__fish_seen_subcommand_from remove' -s y -l yes -d 'remove without asking'
# import, parse
complete -c feeds -n '__fish_seen_subcommand_from import' -F
complete -c feeds -n '__fish_seen_subcommand_from import' -l allow-local -d 'local paths and file URLs too'
complete -c feeds -n '__fish_seen_subcommand_from parse' -F
complete -c feeds -n '__fish_seen_subcommand_from parse' -l json -d 'the card model'
complete -c feeds -n '__fish_seen_subcommand_from parse' -l as -x -a 'ddg searxng opensearch susi hn' -d 'a search engine response'
complete -c feeds -n '__fish_seen_subcommand_from parse' -l base -x -d 'the document URL'
complete -c feeds -n '__fish_seen_subcommand_from parse' -l charset -x -d 'the declared charset'
# read, search
for listing in read search
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l sort -x -a 'newest oldest source title relevance' -d 'the order'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l since -x -d 'cards dated from WHEN (90s, 30m, 2h, 1d, 2w, a date)'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l source -x -a '(__feeds_sources)' -d 'one source'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l tag -x -d 'sources with this tag'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l unread -d 'unread cards only'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l limit -x -d 'at most N cards'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l group -x -a 'source day none' -d 'headings by'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l brief -d 'one line a card'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l json -d 'a JSON array of cards'
    complete -c feeds -n "__fish_seen_subcommand_from $listing" -l utc -d 'dates in UTC'
end
# browse
complete -c feeds -n '__fish_seen_subcommand_from browse' -l sort -x -a 'newest oldest source title relevance' -d 'the order to start in'
complete -c feeds -n '__fish_seen_subcommand_from browse' -l since -x -d 'cards dated from WHEN'
complete -c feeds -n '__fish_seen_subcommand_from browse' -l source -x -a '(__feeds_sources)' -d 'one source'
complete -c feeds -n '__fish_seen_subcommand_from browse' -l tag -x -d 'sources with this tag'
complete -c feeds -n '__fish_seen_subcommand_from browse' -l unread -d 'unread cards only'
complete -c feeds -n '__fish_seen_subcommand_from browse' -l utc -d 'dates in UTC'
complete -c feeds -n '__fish_seen_subcommand_from read' -l keep-unread -d 'do not mark the cards shown as read'
# mark
complete -c feeds -n '__fish_seen_subcommand_from mark; and not __fish_seen_subcommand_from read unread' -a 'read unread'
complete -c feeds -n '__fish_seen_subcommand_from mark' -l source -x -a '(__feeds_sources)' -d 'every card of a source'
complete -c feeds -n '__fish_seen_subcommand_from mark' -l all -d 'every card'
complete -c feeds -n '__fish_seen_subcommand_from mark' -l since -x -d 'cards dated from WHEN'
complete -c feeds -n '__fish_seen_subcommand_from mark' -l before -x -d 'cards dated before WHEN'
# html
complete -c feeds -n '__fish_seen_subcommand_from html' -l out -r -a '(__fish_complete_directories)' -d 'the folder to write'
complete -c feeds -n '__fish_seen_subcommand_from html' -l since -x -d 'the latest digest since WHEN'
complete -c feeds -n '__fish_seen_subcommand_from html' -l title -x -d 'the site title'
complete -c feeds -n '__fish_seen_subcommand_from html sources' -l tag -x -d 'only the sources with this tag'
complete -c feeds -n '__fish_seen_subcommand_from html' -l no-images -d 'do not download images'
complete -c feeds -n '__fish_seen_subcommand_from html' -l allow-internal -d 'images on your own network'
# migrate
complete -c feeds -n '__fish_seen_subcommand_from migrate' -l to -x -d 'the PostgreSQL database'
complete -c feeds -n '__fish_seen_subcommand_from migrate' -l from -x -d 'the SQLite database, sqlite:PATH'
# cache, help
complete -c feeds -n '__fish_seen_subcommand_from cache' -a 'stats prune clear'
complete -c feeds -n '__fish_seen_subcommand_from help' -a "$commands"
