# scripts/bench/nginx.sh: a private nginx for the benchmarks (sourced, POSIX sh)
#
#   . "$here/bench/nginx.sh"
#   nginx_up DIR DOCROOT PROBE     # sets $port, $base and $ngpid, or dies
#   NGINX_ADDRS=50 nginx_up ...    # also 127.0.0.2 .. 127.0.0.50, same port
#   NGINX_LOG=FILE nginx_up ...    # log "server_addr msec request_time uri"
#   NGINX_LOGFMT=FORMAT ...        # ... or FORMAT (nginx variables; no ')
#   NGINX_SERVER=DIRECTIVES ...    # added to the server block (locations)
#   nginx_down                     # idempotent; call it from the EXIT trap
#   nginx_scratch NAME             # or: $dir, a new scratch dir, and traps
#
# DIR is a scratch directory (the nginx prefix goes in DIR/ng); DOCROOT is
# served as is at /, read by the worker (nobody, when started as root), so
# it must be world-readable; symlinks are followed.  PROBE is a path under
# DOCROOT (e.g. /index.html) that must answer 200 before nginx counts as up.
# nginx listens on 127.0.0.1 on a free random port, 1 worker, access_log
# off, keep-alive, /etc/nginx/mime.types (so .html is text/html).
# Needs nginx, curl and awk; the caller defines die and say.

ngpid=
nginx_down() {
	if [ -n "$ngpid" ]; then
		kill "$ngpid" 2>/dev/null || true
		wait "$ngpid" 2>/dev/null || true
		ngpid=
	fi
}

# nginx_scratch NAME: sets $dir to a new world-readable directory
# ($TMPDIR/NAME.XXXXXX) and traps: on exit nginx_down and $dir removed
# (kept, and said so, when KEEP=1); INT and TERM exit 130 and 143.
nginx_scratch() {
	dir=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	chmod 755 "$dir"
	trap _nginx_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
_nginx_cleanup() {
	nginx_down
	if [ "${KEEP:-0}" = 1 ]; then say "kept $dir"; else rm -rf "$dir"; fi
}

# _nginx_try DIR DOCROOT PROBE PORT: 0 when our nginx answers on PORT
_nginx_try() {
	_d=$1/ng
	_fmt=${NGINX_LOGFMT:-'$server_addr $msec $request_time $uri'}
	cat >"$_d/nginx.conf" <<EOF
worker_processes 1;
worker_rlimit_nofile 8192;
daemon off;
master_process on;
pid $_d/nginx.pid;
error_log $_d/logs/error.log warn;
events { worker_connections 4096; }
http {
	log_format starts '$_fmt';
	access_log ${NGINX_LOG:-off}${NGINX_LOG:+ starts};
	sendfile on;
	tcp_nopush on;
	tcp_nodelay on;
	keepalive_requests 100000;
	keepalive_timeout 65;
	include /etc/nginx/mime.types;
	default_type application/octet-stream;
	disable_symlinks off;
	client_body_temp_path $_d/tmp/body;
	proxy_temp_path $_d/tmp/proxy;
	fastcgi_temp_path $_d/tmp/fastcgi;
	uwsgi_temp_path $_d/tmp/uwsgi;
	scgi_temp_path $_d/tmp/scgi;
	server {
$(_i=1; while [ "$_i" -le "${NGINX_ADDRS:-1}" ]; do echo "		listen 127.0.0.$_i:$4;"; _i=$((_i + 1)); done)
		server_name localhost;
		root $2;
${NGINX_SERVER:-}
	}
}
EOF
	: >"$_d/logs/error.log"
	nginx -p "$_d" -c "$_d/nginx.conf" -e "$_d/logs/error.log" \
	    2>>"$_d/logs/error.log" &
	ngpid=$!
	_i=0
	while [ $_i -lt 50 ]; do
		if ! kill -0 "$ngpid" 2>/dev/null; then
			wait "$ngpid" 2>/dev/null || true
			ngpid=
			return 1
		fi
		if curl -s -o /dev/null -f --max-time 2 "http://127.0.0.1:$4$3"; then
			return 0
		fi
		sleep 0.1
		_i=$((_i + 1))
	done
	nginx_down
	return 1
}

nginx_up() {
	mkdir -p "$1/ng/logs" "$1/ng/tmp"
	port=
	_t=0
	while [ $_t -lt 20 ]; do
		_c=$(awk -v s="$$$_t" 'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
		# someone else there?  then what answers would not be ours
		if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$_c/" 2>/dev/null; then
			_t=$((_t + 1)); continue
		fi
		if _nginx_try "$1" "$2" "$3" "$_c"; then port=$_c; break; fi
		_t=$((_t + 1))
	done
	if [ -z "$port" ]; then
		cat "$1/ng/logs/error.log" >&2
		die "could not start nginx on 127.0.0.1 (docroot $2, probe $3)"
	fi
	base=http://127.0.0.1:$port
	say "nginx pid $ngpid on $base (docroot $2)"
}
