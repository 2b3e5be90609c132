#ifndef FEEDS_CCURL_SHIM_H
#define FEEDS_CCURL_SHIM_H
/* libcurl for Swift, loaded on first use.

   Why loaded and not linked: libcurl brings some thirty shared libraries with it (TLS, HTTP/2,
   Kerberos, LDAP, IDN, ...). Linked, the dynamic loader maps and relocates all of them at every
   start of `feeds`, ~4 ms, also for the commands that never fetch (parse, read, html, search),
   which is a third of their start-up. So this header takes only curl's types and constants from
   <curl/curl.h>, and the functions Fetching calls go through pointers that `ccurl_load` fills
   from libcurl.so.4 with dlopen, once per process. Without libcurl every call fails cleanly
   (NULL, CURLE_FAILED_INIT, CURLM_INTERNAL_ERROR) and `ccurl_load_error` says why.

   curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
   call: one typed wrapper per argument type. */
#include <curl/curl.h>

/* 1 when libcurl is loaded (loading it on the first call), 0 when it cannot be. */
int ccurl_load(void);
/* Why `ccurl_load` failed (the dynamic loader's message). */
const char *ccurl_load_error(void);
/* curl_global_init(CURL_GLOBAL_DEFAULT) once per process, whichever thread asks first. */
CURLcode ccurl_global_init_once(void);
/* Starts `ccurl_load` and `ccurl_global_init_once` on a thread of its own (see shim.c). */
void ccurl_preload(void);
/* Waits for that thread, if started: to be called before the process exits. */
void ccurl_preload_finish(void);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *h);
const char *ccurl_easy_strerror(CURLcode c);
CURLM *ccurl_multi_init(void);
CURLMcode ccurl_multi_cleanup(CURLM *m);
CURLMcode ccurl_multi_add_handle(CURLM *m, CURL *h);
CURLMcode ccurl_multi_remove_handle(CURLM *m, CURL *h);
CURLMcode ccurl_multi_perform(CURLM *m, int *running);
CURLMcode ccurl_multi_poll(CURLM *m, struct curl_waitfd *fds, unsigned int n, int timeout, int *ready);
CURLMcode ccurl_multi_wakeup(CURLM *m);
CURLMsg *ccurl_multi_info_read(CURLM *m, int *left);
const char *ccurl_multi_strerror(CURLMcode c);
struct curl_slist *ccurl_slist_append(struct curl_slist *l, const char *s);
void ccurl_slist_free_all(struct curl_slist *l);
CURLU *ccurl_url(void);
void ccurl_url_cleanup(CURLU *u);
CURLUcode ccurl_url_set(CURLU *u, CURLUPart p, const char *s, unsigned int f);
CURLUcode ccurl_url_get(const CURLU *u, CURLUPart p, char **s, unsigned int f);
void ccurl_free(void *p);

CURLcode ccurl_easy_setopt_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode ccurl_easy_setopt_str(CURL *h, CURLoption o, const char *v);
CURLcode ccurl_easy_setopt_ptr(CURL *h, CURLoption o, void *v);
CURLcode ccurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);
CURLcode ccurl_easy_setopt_datafn(CURL *h, CURLoption o, ccurl_data_callback f);
typedef int (*ccurl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
CURLcode ccurl_easy_setopt_xferinfofn(CURL *h, CURLoption o, ccurl_xferinfo_callback f);
/* Called before curl opens a socket to `address` (a new connection: every redirect hop that
   needs one, every address happy eyeballs tries); returns the socket, or CURL_SOCKET_BAD to
   refuse that address before any packet is sent. */
typedef curl_socket_t (*ccurl_opensocket_callback)(void *context, curlsocktype purpose, struct curl_sockaddr *address);
CURLcode ccurl_easy_setopt_opensocketfn(CURL *h, CURLoption o, ccurl_opensocket_callback f);
/* Called before each request is sent, on a new or a reused connection (libcurl 7.80+), with
   the address connected to; returns CURL_PREREQFUNC_OK or CURL_PREREQFUNC_ABORT. */
typedef int (*ccurl_prereq_callback)(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port);
CURLcode ccurl_easy_setopt_prereqfn(CURL *h, CURLoption o, ccurl_prereq_callback f);
CURLcode ccurl_easy_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode ccurl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode ccurl_easy_getinfo_str(CURL *h, CURLINFO i, char **v);
CURLcode ccurl_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v);
CURLMcode ccurl_multi_setopt_long(CURLM *m, CURLMoption o, long v);
CURLMcode ccurl_multi_setopt_ptr(CURLM *m, CURLMoption o, void *v);

/* libcurl's socket interface (curl_multi_socket_action): curl says through two callbacks which
   sockets it waits on and when its next timeout is due, and the caller waits on them itself
   and tells curl which socket is ready. curl_multi_perform and curl_multi_poll (libcurl 7.88)
   visit every transfer on every call, which made a pass of hundreds of transfers in flight
   cost O(transfers) per wake-up; this costs O(ready sockets). */
CURLMcode ccurl_multi_socket_action(CURLM *m, curl_socket_t s, int ev_bitmask, int *running);
typedef int (*ccurl_socket_callback)(CURL *easy, curl_socket_t s, int what, void *context, void *socket_context);
CURLMcode ccurl_multi_setopt_socketfn(CURLM *m, CURLMoption o, ccurl_socket_callback f);
typedef int (*ccurl_timer_callback)(CURLM *m, long timeout_ms, void *context);
CURLMcode ccurl_multi_setopt_timerfn(CURLM *m, CURLMoption o, ccurl_timer_callback f);

/* The waiting side of that interface, from libc (Swift's Glibc module has no epoll or eventfd).
   ccurl_epoll_set: op is EPOLL_CTL_ADD/MOD/DEL (1/3/2), events EPOLLIN (1) | EPOLLOUT (4);
   returns epoll_ctl's result (errno set). ccurl_epoll_wait fills at most 256 entries. */
struct ccurl_ready { int fd; unsigned int events; };
int ccurl_epoll_create(void);
int ccurl_epoll_set(int epoll, int op, int fd, unsigned int events);
int ccurl_epoll_wait(int epoll, struct ccurl_ready *ready, int capacity, int milliseconds);
int ccurl_eventfd(void);
#endif
