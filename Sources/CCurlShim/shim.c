/* See ccurl_shim.h: libcurl's functions through pointers filled by dlopen on first use. */
#include "ccurl_shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

struct ccurl_api {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMcode (*multi_socket_action)(CURLM *, curl_socket_t, int, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    const char *(*multi_strerror)(CURLMcode);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
    void (*free)(void *);
    int loaded;
    char error[256];
};

static struct ccurl_api ccurl_table;
static pthread_once_t ccurl_once = PTHREAD_ONCE_INIT;

/* Keeps `why` (cut to the buffer) as the answer of `ccurl_load_error`. */
static void ccurl_set_error(const char *why) {
    size_t i = 0;
    for (; why[i] != 0 && i + 1 < sizeof ccurl_table.error; i++) ccurl_table.error[i] = why[i];
    ccurl_table.error[i] = 0;
}

static void ccurl_load_once(void) {
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) lib = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        const char *why = dlerror();
        ccurl_set_error(why != NULL ? why : "libcurl.so.4 could not be loaded");
        return;
    }
    int missing = 0;
#define CCURL_SYMBOL(field, name) \
    do { *(void **)(&ccurl_table.field) = dlsym(lib, name); if (ccurl_table.field == NULL) missing = 1; } while (0)
    CCURL_SYMBOL(global_init, "curl_global_init");
    CCURL_SYMBOL(easy_init, "curl_easy_init");
    CCURL_SYMBOL(easy_cleanup, "curl_easy_cleanup");
    CCURL_SYMBOL(easy_setopt, "curl_easy_setopt");
    CCURL_SYMBOL(easy_getinfo, "curl_easy_getinfo");
    CCURL_SYMBOL(easy_strerror, "curl_easy_strerror");
    CCURL_SYMBOL(multi_init, "curl_multi_init");
    CCURL_SYMBOL(multi_cleanup, "curl_multi_cleanup");
    CCURL_SYMBOL(multi_add_handle, "curl_multi_add_handle");
    CCURL_SYMBOL(multi_remove_handle, "curl_multi_remove_handle");
    CCURL_SYMBOL(multi_perform, "curl_multi_perform");
    CCURL_SYMBOL(multi_poll, "curl_multi_poll");
    CCURL_SYMBOL(multi_wakeup, "curl_multi_wakeup");
    CCURL_SYMBOL(multi_socket_action, "curl_multi_socket_action");
    CCURL_SYMBOL(multi_info_read, "curl_multi_info_read");
    CCURL_SYMBOL(multi_strerror, "curl_multi_strerror");
    CCURL_SYMBOL(multi_setopt, "curl_multi_setopt");
    CCURL_SYMBOL(slist_append, "curl_slist_append");
    CCURL_SYMBOL(slist_free_all, "curl_slist_free_all");
    CCURL_SYMBOL(url, "curl_url");
    CCURL_SYMBOL(url_cleanup, "curl_url_cleanup");
    CCURL_SYMBOL(url_set, "curl_url_set");
    CCURL_SYMBOL(url_get, "curl_url_get");
    CCURL_SYMBOL(free, "curl_free");
#undef CCURL_SYMBOL
    if (missing) {
        ccurl_set_error("libcurl.so.4 lacks functions feeds needs (libcurl 7.68 or later is required)");
        return;
    }
    ccurl_table.loaded = 1;
}

/* 1 when libcurl is loaded (loading it on the first call), 0 when it cannot be. */
int ccurl_load(void) {
    pthread_once(&ccurl_once, ccurl_load_once);
    return ccurl_table.loaded;
}

/* Why `ccurl_load` failed (the dynamic loader's message). */
const char *ccurl_load_error(void) { ccurl_load(); return ccurl_table.error; }

static pthread_once_t ccurl_init_once = PTHREAD_ONCE_INIT;
static CURLcode ccurl_init_result = CURLE_FAILED_INIT;

static void ccurl_init_once_run(void) {
    if (ccurl_load()) ccurl_init_result = ccurl_table.global_init(CURL_GLOBAL_DEFAULT);
}

/* curl_global_init(CURL_GLOBAL_DEFAULT) exactly once per process, whichever thread asks first
   (libcurl before 7.84 must not run it on two threads at once); its result every time. */
CURLcode ccurl_global_init_once(void) {
    pthread_once(&ccurl_init_once, ccurl_init_once_run);
    return ccurl_init_result;
}

static void *ccurl_preload_thread(void *unused) {
    (void)unused;
    (void)ccurl_global_init_once();
    return NULL;
}

static pthread_t ccurl_preloader;
static int ccurl_preloader_started;

static void ccurl_preload_once_run(void) {
    ccurl_preloader_started = pthread_create(&ccurl_preloader, NULL, ccurl_preload_thread, NULL) == 0;
}
static pthread_once_t ccurl_preload_once = PTHREAD_ONCE_INIT;

static void ccurl_preload_join_run(void) {
    if (ccurl_preloader_started) (void)pthread_join(ccurl_preloader, NULL);
}
static pthread_once_t ccurl_preload_join_once = PTHREAD_ONCE_INIT;

/* Starts loading libcurl (and the ~30 libraries it needs) and its global initialization on a
   thread of its own: a command that will fetch gets that done (~10-20 ms) while it reads its
   sources. Whoever needs libcurl first on another thread waits for it (the two pthread_once
   above). If the thread cannot start, libcurl is loaded on first use, as before. A second call
   does nothing. The process must call `ccurl_preload_finish` before it exits. */
void ccurl_preload(void) { pthread_once(&ccurl_preload_once, ccurl_preload_once_run); }

/* Waits for the thread `ccurl_preload` started, if any (once; later calls return at once).
   Before exit: no exit handler may run while that thread is inside dlopen or curl_global_init.
   OpenSSL's initialization registers its cleanup with atexit, so at exit the cleanup ran first
   while the thread went on initializing what uses OpenSSL: `feeds update` with no sources
   file crashed at exit 1-2 times in 300 under load, even with a join registered with atexit
   beside it (it ran after OpenSSL's). */
void ccurl_preload_finish(void) { pthread_once(&ccurl_preload_join_once, ccurl_preload_join_run); }

static const struct ccurl_api *ccurl_api(void) { return ccurl_load() ? &ccurl_table : NULL; }

CURLcode ccurl_global_init(long flags) { const struct ccurl_api *a = ccurl_api(); return a ? a->global_init(flags) : CURLE_FAILED_INIT; }
CURL *ccurl_easy_init(void) { const struct ccurl_api *a = ccurl_api(); return a ? a->easy_init() : NULL; }
void ccurl_easy_cleanup(CURL *h) { const struct ccurl_api *a = ccurl_api(); if (a) a->easy_cleanup(h); }
const char *ccurl_easy_strerror(CURLcode c) { const struct ccurl_api *a = ccurl_api(); return a ? a->easy_strerror(c) : "libcurl is not loaded"; }
CURLM *ccurl_multi_init(void) { const struct ccurl_api *a = ccurl_api(); return a ? a->multi_init() : NULL; }
CURLMcode ccurl_multi_cleanup(CURLM *m) { const struct ccurl_api *a = ccurl_api(); return a ? a->multi_cleanup(m) : CURLM_INTERNAL_ERROR; }
CURLMcode ccurl_multi_add_handle(CURLM *m, CURL *h) { const struct ccurl_api *a = ccurl_api(); return a ? a->multi_add_handle(m, h) : CURLM_INTERNAL_ERROR; }
CURLMcode ccurl_multi_remove_handle(CURLM *m, CURL *h) { const struct ccurl_api *a = ccurl_api(); return a ? a->multi_remove_handle(m, h) : CURLM_INTERNAL_ERROR; }
CURLMcode ccurl_multi_perform(CURLM *m, int *running) { const struct ccurl_api *a = ccurl_api(); return a ? a->multi_perform(m, running) : CURLM_INTERNAL_ERROR; }
CURLMcode ccurl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int n, int timeout, int *ready) {
    const struct ccurl_api *a = ccurl_api(); return a ? a->multi_poll(m, fds, n, timeout, ready) : CURLM_INTERNAL_ERROR;
}
CURLMcode ccurl_multi_socket_action(CURLM *m, curl_socket_t s, int ev, int *running) {
    const struct ccurl_api *a = ccurl_api(); return a ? a->multi_socket_action(m, s, ev, running) : CURLM_INTERNAL_ERROR;
}
CURLMcode ccurl_multi_wakeup(CURLM *m) { const struct ccurl_api *a = ccurl_api(); return a ? a->multi_wakeup(m) : CURLM_INTERNAL_ERROR; }
CURLMsg *ccurl_multi_info_read(CURLM *m, int *left) { const struct ccurl_api *a = ccurl_api(); return a ? a->multi_info_read(m, left) : NULL; }
const char *ccurl_multi_strerror(CURLMcode c) { const struct ccurl_api *a = ccurl_api(); return a ? a->multi_strerror(c) : "libcurl is not loaded"; }
struct curl_slist *ccurl_slist_append(struct curl_slist *l, const char *s) { const struct ccurl_api *a = ccurl_api(); return a ? a->slist_append(l, s) : NULL; }
void ccurl_slist_free_all(struct curl_slist *l) { const struct ccurl_api *a = ccurl_api(); if (a) a->slist_free_all(l); }
CURLU *ccurl_url(void) { const struct ccurl_api *a = ccurl_api(); return a ? a->url() : NULL; }
void ccurl_url_cleanup(CURLU *u) { const struct ccurl_api *a = ccurl_api(); if (a) a->url_cleanup(u); }
CURLUcode ccurl_url_set(CURLU *u, CURLUPart p, const char *s, unsigned int f) { const struct ccurl_api *a = ccurl_api(); return a ? a->url_set(u, p, s, f) : CURLUE_OUT_OF_MEMORY; }
CURLUcode ccurl_url_get(const CURLU *u, CURLUPart p, char **s, unsigned int f) { const struct ccurl_api *a = ccurl_api(); return a ? a->url_get(u, p, s, f) : CURLUE_OUT_OF_MEMORY; }
void ccurl_free(void *p) { const struct ccurl_api *a = ccurl_api(); if (a) a->free(p); }

#define CCURL_SETOPT(h, o, v) (ccurl_api() ? ccurl_api()->easy_setopt((h), (o), (v)) : CURLE_FAILED_INIT)
#define CCURL_GETINFO(h, i, v) (ccurl_api() ? ccurl_api()->easy_getinfo((h), (i), (v)) : CURLE_FAILED_INIT)
CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return CCURL_SETOPT(h, o, v); }
CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return CCURL_SETOPT(h, o, v); }
CURLcode ccurl_easy_setopt_str(CURL *h, CURLoption o, const char *v) { return CCURL_SETOPT(h, o, v); }
CURLcode ccurl_easy_setopt_ptr(CURL *h, CURLoption o, void *v) { return CCURL_SETOPT(h, o, v); }
CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return CCURL_SETOPT(h, o, v); }
CURLcode ccurl_easy_setopt_datafn(CURL *h, CURLoption o, ccurl_data_callback f) { return CCURL_SETOPT(h, o, f); }
CURLcode ccurl_easy_setopt_xferinfofn(CURL *h, CURLoption o, ccurl_xferinfo_callback f) { return CCURL_SETOPT(h, o, f); }
CURLcode ccurl_easy_setopt_opensocketfn(CURL *h, CURLoption o, ccurl_opensocket_callback f) { return CCURL_SETOPT(h, o, f); }
CURLcode ccurl_easy_setopt_prereqfn(CURL *h, CURLoption o, ccurl_prereq_callback f) { return CCURL_SETOPT(h, o, f); }
CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return CCURL_GETINFO(h, i, v); }
CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return CCURL_GETINFO(h, i, v); }
CURLcode ccurl_easy_getinfo_str(CURL *h, CURLINFO i, char **v) { return CCURL_GETINFO(h, i, v); }
CURLcode ccurl_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) { return CCURL_GETINFO(h, i, v); }
CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
    const struct ccurl_api *a = ccurl_api(); return a ? a->multi_setopt(m, o, v) : CURLM_INTERNAL_ERROR;
}
#undef CCURL_SETOPT
#undef CCURL_GETINFO
CURLMcode ccurl_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v) {
    const struct ccurl_api *a = ccurl_api(); return a ? a->multi_setopt(m, o, v) : CURLM_INTERNAL_ERROR;
}
CURLMcode ccurl_multi_setopt_socketfn(CURLM *m, CURLMoption o, ccurl_socket_callback f) {
    const struct ccurl_api *a = ccurl_api(); return a ? a->multi_setopt(m, o, f) : CURLM_INTERNAL_ERROR;
}
CURLMcode ccurl_multi_setopt_timerfn(CURLM *m, CURLMoption o, ccurl_timer_callback f) {
    const struct ccurl_api *a = ccurl_api(); return a ? a->multi_setopt(m, o, f) : CURLM_INTERNAL_ERROR;
}
int ccurl_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
int ccurl_epoll_set(int epoll, int op, int fd, unsigned int events) {
    struct epoll_event event = { .events = events, .data = { .fd = fd } };
    return epoll_ctl(epoll, op, fd, &event);
}
int ccurl_epoll_wait(int epoll, struct ccurl_ready *ready, int capacity, int milliseconds) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    int n = epoll_wait(epoll, events, capacity, milliseconds);
    for (int i = 0; i < n; i++) { ready[i].fd = events[i].data.fd; ready[i].events = events[i].events; }
    return n;
}
int ccurl_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
